package io.grove.core.cluster;

import static io.grove.core.cluster.ClusterHarness.job;
import static io.grove.core.cluster.ClusterHarness.node;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.core.forecast.ForecastSnapshot;
import io.grove.core.node.NodeDrain;
import io.grove.core.operation.Job;
import io.grove.core.operation.OperationSpec;
import io.grove.core.pool.PoolConfig;
import io.grove.core.schedule.Decision;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** A drained node starts nothing while its running jobs go on; drained now, they stop and run elsewhere. */
class NodeDrainTest {

    static final Duration SECOND = Duration.ofSeconds(1);
    static final Instant T = Instant.parse("2026-11-28T10:00:00Z");

    static OperationSpec ops(int jobs) {
        return OperationSpec.builder().pool("research").jobs(jobs, job(1, 1)).build();
    }

    ClusterHarness harness() {
        return ClusterHarness.withPools(PoolConfig.builder("research")).node("n1", node(8, 64)).node("n2", node(8, 64));
    }

    static long on(ClusterHarness h, String node) {
        return h.cluster().registry().operation("a").runningJobs().stream().filter(j -> j.nodeId().equals(node)).count();
    }

    @Test
    void aDrainedNodeStartsNothingWhileItsJobsGoOnUntilItIsUndrained() {
        ClusterHarness h = harness();
        h.submit("a", ops(4));
        h.rounds(1, SECOND);
        long onN1 = on(h, "n1");
        assertTrue(onN1 > 0, "some jobs run on n1 before the drain");
        h.cluster().drains().drain(new NodeDrain("n1", "disk replacement", false, "admin", T));
        h.submit("b", OperationSpec.builder().pool("research").jobs(16, job(1, 1)).build());
        h.rounds(3, SECOND);
        assertEquals(onN1, on(h, "n1"), "its running jobs go on");
        assertEquals(0, h.cluster().registry().operation("b").runningJobs().stream()
                .filter(j -> j.nodeId().equals("n1")).count(), "nothing new starts on the drained node");
        assertFalse(h.cluster().node("n1").schedulable());
        assertEquals(8, h.cluster().prepareFairShare("physical", h.now()).input().totalResources().cpu(), 1e-9,
                "the tree's total is its nodes that may start jobs: n2's 8 cpu");
        assertTrue(h.cluster().node("n1").unschedulable().contains("disk replacement"));
        Decision idle = h.heartbeat("n1");
        assertTrue(idle.starts().isEmpty());
        assertTrue(h.preemptions().stream().noneMatch(p -> p.reason() == Decision.PreemptionReason.NODE_DRAINED),
                "a drain without now stops nothing");
        assertTrue(idle.idle().get(0).message().contains("drained by admin"), idle.idle().toString());

        assertTrue(h.cluster().drains().undrain("n1"));
        assertFalse(h.cluster().drains().undrain("n1"), "undrained once");
        h.rounds(2, SECOND);
        assertTrue(h.cluster().registry().operation("b").runningJobs().stream().anyMatch(j -> j.nodeId().equals("n1")),
                "undrained: jobs start there again");
    }

    @Test
    void drainedNowItsJobsAreStoppedGracefullyAndStartAgainOnAnotherNode() {
        ClusterHarness h = harness();
        h.submit("a", ops(2));
        h.rounds(1, SECOND);
        long onN1 = on(h, "n1");
        assertTrue(onN1 > 0);
        h.cluster().drains().drain(new NodeDrain("n1", null, true, "admin", T));
        h.rounds(1, SECOND);
        long told = h.preemptions().stream().filter(p -> p.reason() == Decision.PreemptionReason.NODE_DRAINED).count();
        assertEquals(onN1, told, "every running job of the node is told to stop, once");
        h.rounds(90, SECOND);
        assertEquals(0, on(h, "n1"), "stopped after their grace, and nothing starts there again");
        assertEquals(2, on(h, "n2"), "they run again on the other node");
        assertEquals(0, h.cluster().registry().operation("a").failedJobCount(), "stopped for a drain is not failed");
        Job ended = h.cluster().registry().operation("a").runningJobs().get(0);
        assertNull(ended.preemptedFor(), "the new attempt is not preempted");
    }

    @Test
    void aDrainOfANodeNotYetConnectedHoldsWhenItConnectsAndTheForecastSeesIt() {
        ClusterHarness h = harness();
        h.cluster().drains().drain(new NodeDrain("n3", "not racked yet", false, "admin", T));
        h.node("n3", node(64, 256));
        h.submit("a", ops(4));
        h.rounds(2, SECOND);
        assertEquals(0, on(h, "n3"), "the drain waited for the node and holds it");
        assertFalse(h.cluster().node("n3").schedulable());
        ForecastSnapshot.NodeState copied = ForecastSnapshot.take(h.cluster(), h.now()).nodes().stream()
                .filter(n -> n.id().equals("n3")).findFirst().orElseThrow();
        assertEquals("not racked yet", copied.drain().reason(), "the forecast's copy holds it too");
    }

    @Test
    void anOperationOnlyDrainedNodesCouldTakeIsExplainedWithWhoDrainedThemAndWhy() {
        ClusterHarness h = harness();
        h.cluster().drains().drain(new NodeDrain("n1", "new disks", false, "root", T));
        h.cluster().drains().drain(new NodeDrain("n2", "new disks", false, "root", T));
        h.submit("a", ops(1));
        h.rounds(1, SECOND);
        PendingCheck verdict = PendingExplainer.explain(h.cluster(), h.cluster().registry().operation("a")).get(0).verdict();
        assertEquals(PendingCheck.Code.NO_SCHEDULABLE_NODE, verdict.code(), verdict.toString());
        assertTrue(verdict.message().contains("node n1 is drained by root") && verdict.message().contains("new disks"),
                verdict.message());
        h.cluster().drains().undrain("n2");
        h.rounds(1, SECOND);
        assertEquals(1, h.running("a"), "undrained n2 takes it");
    }

    @Test
    void aGangIsNotPlannedOnADrainedNode() {
        ClusterHarness h = harness();
        h.cluster().drains().drain(new NodeDrain("n2", "new disks", false, "root", T));
        // two ranks of 8 cpu: only both nodes together hold them
        h.submit("g", OperationSpec.builder().pool("research").jobs(2, job(8, 1)).gang().build());
        h.rounds(3, SECOND);
        assertEquals(0, h.running("g"), "one node is not enough, and the drained one is not planned on");
        assertNull(h.cluster().gang("physical", "g").plan());
        h.cluster().drains().undrain("n2");
        h.rounds(3, SECOND);
        assertEquals(2, h.running("g"), "undrained: both ranks start together");
    }
}
