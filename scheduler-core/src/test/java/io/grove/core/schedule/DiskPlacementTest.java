package io.grove.core.schedule;

import static io.grove.core.cluster.ClusterHarness.job;
import static io.grove.core.cluster.ClusterHarness.node;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.core.cluster.ClusterHarness;
import io.grove.core.node.NodeCondition;
import io.grove.core.operation.Job;
import io.grove.core.operation.OperationSpec;
import io.grove.core.operation.TaskSpec;
import io.grove.core.pool.PoolConfig;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A job's disk order is a placement condition: it starts only on a node with that much free. */
class DiskPlacementTest {

    private static final Duration SECOND = Duration.ofSeconds(1);
    private static final long GIB = 1L << 30;

    private static OperationSpec diskJobs(int count, long disk) {
        return OperationSpec.builder().pool("etl")
                .task(new TaskSpec("main", count, "work", job(1, 1), Map.of(), disk)).build();
    }

    @Test
    void jobsOrderingDiskGoOnlyWhereItFitsAndNoNodeTakesMoreThanItHas() {
        ClusterHarness h = ClusterHarness.withPools(PoolConfig.builder("etl"))
                .nodeWithDisk("small", node(16, 64), 5 * GIB)
                .nodeWithDisk("large", node(16, 64), 100 * GIB);
        h.submit("op", diskJobs(20, 10 * GIB));
        h.rounds(3, SECOND);
        assertEquals(10, h.running("op"), "10 GiB each: none on the 5 GiB node, ten in 100 GiB");
        for (Job running : h.cluster().registry().operation("op").runningJobs()) {
            assertEquals("large", running.nodeId());
        }
        Decision small = h.decisions().stream().filter(d -> d.nodeId().equals("small")).reduce((a, b) -> b).orElseThrow();
        assertEquals(Decision.IdleCode.DISK, small.idle().get(0).code(), small.idle().toString());
        assertTrue(small.idle().get(0).message().contains("disk_space"), small.idle().get(0).message());
    }

    @Test
    void anOperationWhoseDiskFitsNoNodeSaysSo() {
        ClusterHarness h = ClusterHarness.withPools(PoolConfig.builder("etl"))
                .nodeWithDisk("a", node(16, 64), 5 * GIB)
                .nodeWithDisk("b", node(16, 64), 8 * GIB);
        io.grove.core.operation.Operation op = h.submit("op", diskJobs(2, 10 * GIB));
        h.rounds(2, SECOND);
        java.util.List<String> why = io.grove.core.cluster.NodeFit.tasksLargerThanEveryNode(h.cluster().nodes(), op,
                "physical");
        assertEquals(1, why.size(), why.toString());
        assertTrue(why.get(0).contains("no node has room for its disk"), why.get(0));
        assertTrue(why.get(0).contains("at most " + 8 * GIB), why.get(0));
        io.grove.core.cluster.PendingCheck blocking = io.grove.core.cluster.PendingExplainer.explain(h.cluster(), op).get(0)
                .verdict();
        assertEquals(io.grove.core.cluster.PendingCheck.Code.NO_ROOM_FOR_DISK, blocking.code(), blocking.message());
        assertTrue(blocking.message().contains("the most any of the 2 matching nodes has free is " + 8 * GIB + " bytes, on b"),
                blocking.message());
    }

    @Test
    void jobsWithoutADiskOrderAndNodesThatDoNotSayAreAsBefore() {
        ClusterHarness h = ClusterHarness.withPools(PoolConfig.builder("etl"))
                .nodeWithDisk("full", node(4, 64), 0)
                .node("quiet", node(4, 64));
        h.submit("plain", OperationSpec.builder().pool("etl").jobs(8, job(1, 1)).build());
        h.submit("disk", diskJobs(4, GIB));
        h.rounds(3, SECOND);
        assertEquals(4, h.running("disk"), "a node that says nothing of its disk takes disk orders");
        assertEquals(4, h.running("plain"));
    }

    @Test
    void aNodeThatSaysItCannotStartJobsIsGivenNone() {
        ClusterHarness h = ClusterHarness.withPools(PoolConfig.builder("etl")).node("n1", node(4, 64));
        h.submit("op", OperationSpec.builder().pool("etl").jobs(4, job(1, 1)).build());
        h.update();
        Heartbeat sick = h.pendingHeartbeat("n1");
        Heartbeat said = new Heartbeat(sick.nodeId(), sick.tags(), sick.resourceLimits(), sick.resourceUsage(),
                sick.runningJobs(), sick.finishedJobs(), false, new NodeCondition(-1, "disk full: 3 MiB free"));
        Decision decision = h.cluster().heartbeat(said, h.now());
        assertEquals(0, decision.starts().size());
        assertEquals(Decision.IdleCode.UNSCHEDULABLE, decision.idle().get(0).code());
        assertTrue(decision.idle().get(0).message().contains("cannot start jobs: disk full"), decision.idle().toString());
        assertEquals("disk full: 3 MiB free", h.cluster().node("n1").condition().unschedulable());
        h.rounds(2, SECOND);
        assertEquals(4, h.running("op"), "once it says it can again, it is given jobs");
    }

    @Test
    void aStartCarriesItsTreesDefaultsForJobsThatOrderNoMemoryOrDisk() {
        io.grove.core.pool.PoolTreeConfig tree = io.grove.core.pool.PoolTreeConfig.withPools("physical",
                List.of(PoolConfig.builder("etl").build())).withJobDefaults(new io.grove.core.pool.JobDefaults(512L << 20, GIB));
        ClusterHarness h = ClusterHarness.of(tree).node("n1", node(4, 64));
        h.submit("op", OperationSpec.builder().pool("etl").jobs(1, job(1, 0)).build());
        h.update();
        Decision decision = h.heartbeat("n1");
        assertEquals(new io.grove.core.pool.JobDefaults(512L << 20, GIB), decision.starts().get(0).defaults());
    }
}
