package io.grove.core.cluster;

import static io.grove.core.cluster.ClusterHarness.job;
import static io.grove.core.cluster.ClusterHarness.node;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.core.operation.Job;
import io.grove.core.operation.JobEndReason;
import io.grove.core.operation.JobState;
import io.grove.core.operation.Operation;
import io.grove.core.operation.OperationSpec;
import io.grove.core.operation.SubmitException;
import io.grove.core.operation.TaskSpec;
import io.grove.core.pool.PoolConfig;
import io.grove.core.pool.PoolTimeLimits;
import io.grove.core.schedule.Decision;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A job past its time limit is stopped gracefully and ends failed for "time limit", like Slurm's --time. */
class TimeLimitTest {

    private static final Duration STEP = Duration.ofSeconds(1);

    private static OperationSpec spec(String pool, Long limitMillis) {
        return OperationSpec.builder().pool(pool).maxFailedJobCount(0).task(new TaskSpec("main", 1, "work",
                job(1, 1), Map.of(), 0, null, null, limitMillis)).build();
    }

    private static ClusterHarness harness() {
        return ClusterHarness.withPools(
                PoolConfig.builder("batch").timeLimits(Duration.ofMinutes(2), Duration.ofHours(1))
                        .child(PoolConfig.builder("short").timeLimits(null, Duration.ofMinutes(10))),
                PoolConfig.builder("free")).node("n1", node(4, 16));
    }

    @Test
    void aJobPastItsLimitIsInterruptedGracefullyAndEndsFailedForTheTimeLimit() {
        ClusterHarness h = harness();
        h.submit("op", spec("free", 30_000L));
        h.rounds(1, STEP);
        Job running = h.cluster().registry().operation("op").runningJobs().get(0);
        h.rounds(28, STEP);
        assertTrue(h.preemptions().isEmpty(), "before its limit nothing happens");
        h.rounds(3, STEP);
        List<Decision.JobPreemption> stops = h.preemptions();
        assertEquals(1, stops.size(), stops.toString());
        assertEquals(Decision.PreemptionReason.TIME_LIMIT, stops.get(0).reason());
        assertTrue(stops.get(0).message().startsWith("time limit 30s reached"), stops.get(0).message());
        assertEquals(Duration.ofSeconds(60), stops.get(0).grace(), "the tree's graceful grace");

        h.advance(Duration.ofSeconds(60));
        h.heartbeatAll();
        Operation operation = h.cluster().registry().operation("op");
        Job ended = operation.finishedJobs().get(0);
        assertEquals(running.id(), ended.id());
        assertEquals(JobState.FAILED, ended.state());
        assertEquals(JobEndReason.TIME_LIMIT, ended.endReason());
        assertEquals("failed", operation.state().name().toLowerCase(), "max_failed_job_count 0: the operation fails");
    }

    @Test
    void aPoolsDefaultAndMaximumAreInheritedAndAnAskAboveTheMaximumIsRefused() {
        ClusterHarness h = harness();
        assertEquals(Duration.ofMinutes(2), h.submit("default", spec("batch", null)).timeLimit("physical", 0));
        assertEquals(Duration.ofMinutes(2), h.submit("child", spec("short", null)).timeLimit("physical", 0),
                "the parent's default, under the child's own maximum");
        assertEquals(Duration.ofMinutes(5), h.submit("own", spec("short", 300_000L)).timeLimit("physical", 0));
        assertNull(h.submit("none", spec("free", null)).timeLimit("physical", 0));
        SubmitException refused = assertThrows(SubmitException.class, () -> h.submit("long", spec("short", 3_600_000L)));
        assertEquals("task main: time_limit 1h is above the max_time_limit 10m of pool \"short\" in tree \"physical\"",
                refused.getMessage());
        assertNull(h.cluster().registry().operation("long"));
        assertEquals(new PoolTimeLimits(Duration.ofMinutes(10), Duration.ofMinutes(10)),
                PoolTimeLimits.along(List.of(new PoolTimeLimits(null, Duration.ofMinutes(10)),
                        new PoolTimeLimits(Duration.ofHours(1), null))), "a default above a maximum below it is capped");
    }

    @Test
    void aJobThatEndsBeforeItsLimitIsForgottenAndOneWithoutALimitRunsOn() {
        ClusterHarness h = harness();
        h.submit("quick", spec("batch", null));
        h.jobsOf("quick", Duration.ofSeconds(5));
        h.submit("forever", spec("free", null));
        h.rounds(200, STEP);
        assertTrue(h.preemptions().isEmpty(), h.preemptions().toString());
        assertEquals(1, h.cluster().registry().operation("quick").completedJobCount());
        assertEquals(1, h.running("forever"));
    }
}
