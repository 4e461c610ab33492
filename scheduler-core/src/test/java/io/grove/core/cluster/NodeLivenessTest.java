package io.grove.core.cluster;

import static io.grove.core.cluster.ClusterHarness.job;
import static io.grove.core.cluster.ClusterHarness.node;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.grove.core.node.Node;
import io.grove.core.operation.Job;
import io.grove.core.operation.JobEndReason;
import io.grove.core.operation.OperationSpec;
import io.grove.core.pool.PoolConfig;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.pool.PoolsConfig;
import io.grove.core.schedule.Decision;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Node liveness (docs/scheduling.md#node-liveness): offline after the heartbeat timeout, jobs aborted after the registration timeout. */
class NodeLivenessTest {

    @Test
    void aSilentNodeGoesOfflineKeepsItsJobsAndComesBackWithThem() {
        ClusterHarness h = ClusterHarness.withPools(PoolConfig.builder("a")).node("n1", node(2, 8)).node("n2", node(2, 8));
        h.submit("op", OperationSpec.builder().pool("a").jobs(2, job(1, 1)).build());
        h.update();
        h.heartbeat("n1");
        h.advance(Duration.ofSeconds(61));
        h.heartbeat("n2");
        h.update();
        assertEquals(Node.State.OFFLINE, h.cluster().node("n1").state());
        assertEquals(2, h.running("op"), "an offline node keeps its jobs");
        assertEquals(1.0, h.cluster().fairShare("physical").root().usageShare().cpu(), 1e-9,
                "the offline node's 2 cpu left the total; its 2 running jobs still count");
        Decision back = h.heartbeat("n1");
        assertEquals(List.of(), back.aborts());
        assertEquals(Node.State.ONLINE, h.cluster().node("n1").state());
        assertEquals(2, h.running("op"));
    }

    @Test
    void afterTheRegistrationTimeoutItsJobsAreAbortedAndRunElsewhere() {
        ClusterHarness h = ClusterHarness.withPools(PoolConfig.builder("a")).node("n1", node(2, 8)).node("n2", node(2, 8));
        h.submit("op", OperationSpec.builder().pool("a").jobs(2, job(1, 1)).build());
        h.update();
        h.heartbeat("n1");
        h.machine("n1").lose();
        h.advance(Duration.ofSeconds(600));
        h.heartbeat("n2");
        h.update();
        assertNull(h.cluster().node("n1"));
        List<Job> aborted = h.cluster().registry().operation("op").finishedJobs();
        assertEquals(2, aborted.size());
        assertEquals(JobEndReason.NODE_OFFLINE, aborted.get(0).endReason());
        assertEquals(2, h.heartbeat("n2").starts().size(), "rescheduled on the other node");
        h.machine("n1").restore();
        assertEquals(List.of(), h.heartbeat("n1").aborts(), "the machine came back empty and registers anew");
    }

    @Test
    void aReloadThatRaisesALimitStartsPendingOperations() {
        PoolTreeConfig tight = PoolTreeConfig.withPools("physical",
                List.of(PoolConfig.builder("a").maxRunningOperationCount(1).build()));
        ClusterHarness h = ClusterHarness.of(tight).node("n1", node(4, 8));
        h.submit("first", OperationSpec.builder().pool("a").jobs(1, job(1, 1)).build());
        h.submit("second", OperationSpec.builder().pool("a").jobs(1, job(1, 1)).build());
        assertEquals(io.grove.core.operation.OperationState.PENDING, h.cluster().registry().operation("second").state());
        PoolTreeConfig loose = PoolTreeConfig.withPools("physical",
                List.of(PoolConfig.builder("a").maxRunningOperationCount(2).build()));
        var activated = h.cluster().reconfigure(new PoolsConfig("physical", Map.of("physical", loose)));
        assertEquals(List.of(new io.grove.core.operation.OperationRegistry.Activation("second", "physical")), activated);
        h.update();
        assertEquals(2, h.heartbeat("n1").starts().size());
    }
}
