package io.grove.core.cluster;

import static io.grove.core.cluster.ClusterHarness.job;
import static io.grove.core.cluster.ClusterHarness.node;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.core.operation.Job;
import io.grove.core.operation.JobCpu;
import io.grove.core.operation.OperationSpec;
import io.grove.core.pool.PoolConfig;
import io.grove.core.schedule.Heartbeat;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A running operation whose jobs their nodes throttle most of the time is told to order more cpu. */
class ThrottledExplainTest {

    private static List<PendingCheck> checks(ClusterHarness h, String op) {
        return PendingExplainer.explain(h.cluster(), h.cluster().registry().operation(op)).get(0).checks();
    }

    /** The node reports each running job's CPU with the given throttled share. */
    private static void report(ClusterHarness h, String op, double share) {
        Heartbeat plain = h.pendingHeartbeat("n1");
        List<JobCpu> cpu = new ArrayList<>();
        for (Job job : h.cluster().registry().operation(op).runningJobs()) {
            cpu.add(new JobCpu(job.id(), 12.5, 30 * share, share));
        }
        h.cluster().heartbeat(new Heartbeat(plain.nodeId(), plain.tags(), plain.resourceLimits(), plain.resourceUsage(),
                plain.runningJobs(), plain.finishedJobs(), false, plain.condition(), cpu), h.now());
    }

    @Test
    void jobsThrottledMostOfTheTimeAreSaidToNeedMoreCpu() {
        ClusterHarness h = ClusterHarness.withPools(PoolConfig.builder("etl")).node("n1", node(8, 64));
        h.submit("op", OperationSpec.builder().pool("etl").jobs(4, job(1, 1)).build());
        h.rounds(2, Duration.ofSeconds(1));
        assertEquals(4, h.running("op"));
        report(h, "op", 0.7);
        PendingCheck first = checks(h, "op").get(0);
        assertEquals(PendingCheck.Code.CPU_THROTTLED, first.code());
        assertTrue(first.message().equals("its running jobs were throttled 70% of the time by their cpu quota (4 of 4 "
                + "jobs mostly): order more cpu than 1"), first.message());
        assertEquals(12.5, h.cluster().registry().operation("op").runningJobs().iterator().next().cpu().cpuSeconds());

        report(h, "op", 0.1);
        assertTrue(checks(h, "op").stream().noneMatch(c -> c.code() == PendingCheck.Code.CPU_THROTTLED),
                "rarely throttled: nothing to say");
    }
}
