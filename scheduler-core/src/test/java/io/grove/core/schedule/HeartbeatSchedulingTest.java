package io.grove.core.schedule;

import static io.grove.core.cluster.ClusterHarness.job;
import static io.grove.core.cluster.ClusterHarness.node;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.core.cluster.ClusterHarness;
import io.grove.core.operation.OperationSpec;
import io.grove.core.operation.TaskSpec;
import io.grove.core.pool.FifoPoolSchedulingOrder;
import io.grove.core.pool.PartialResources;
import io.grove.core.pool.PoolConfig;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.resource.ResourceType;
import io.grove.core.resource.Resources;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The heartbeat descent (docs/scheduling.md#the-heartbeat-decision) and the decision's reasons. */
class HeartbeatSchedulingTest {

    private static OperationSpec ops(String pool, int jobs, Resources each) {
        return OperationSpec.builder().pool(pool).jobs(jobs, each).build();
    }

    @Test
    void nothingIsStartedBeforeTheFirstFairShareUpdate() {
        ClusterHarness h = ClusterHarness.withPools(PoolConfig.builder("a")).node("n1", node(4, 16));
        h.submit("op", ops("a", 4, job(1, 1)));
        Decision decision = h.heartbeat("n1");
        assertEquals(List.of(), decision.starts());
        assertEquals(Decision.IdleCode.NO_FAIR_SHARE, decision.idle().get(0).code());
    }

    @Test
    void fillsTheNodeAndSaysWhyTheRestStaysIdle() {
        ClusterHarness h = ClusterHarness.withPools(PoolConfig.builder("a")).node("n1", node(8, 32));
        h.submit("op", ops("a", 5, job(1, 2)));
        h.update();
        Decision decision = h.heartbeat("n1");
        assertEquals(5, decision.starts().size());
        assertEquals(Decision.IdleCode.NO_DEMAND, decision.idle().get(0).code());
        assertEquals(5, h.running("op"));
        assertEquals(List.of(0, 1, 2, 3, 4), decision.starts().stream().map(Decision.JobStart::index).toList());
    }

    @Test
    void lowestSatisfactionFirst_opsWithFewerRunningJobsArePickedFirst() {
        ClusterHarness h = ClusterHarness.withPools(PoolConfig.builder("a")).node("n1", node(10, 100));
        for (int i = 0; i < 10; i++) {
            h.submit("op" + i, ops("a", 1, job(1, 1)));
        }
        h.update();
        Decision decision = h.heartbeat("n1");
        assertEquals(10, decision.starts().size());
        assertEquals(10, decision.starts().stream().map(Decision.JobStart::operationId).distinct().count(),
                "each operation gets one job before any gets a second");
    }

    @Test
    void weightsSplitANodeByDescent() {
        ClusterHarness h = ClusterHarness.withPools(PoolConfig.builder("small").weight(1), PoolConfig.builder("big").weight(3))
                .node("n1", node(8, 64));
        h.submit("s", ops("small", 100, job(1, 1)));
        h.submit("b", ops("big", 100, job(1, 1)));
        h.update();
        h.heartbeat("n1");
        assertEquals(2, h.running("s"));
        assertEquals(6, h.running("b"));
    }

    @Test
    void hierarchicalLimitsAreEnforcedAndReported() {
        ClusterHarness h = ClusterHarness.withPools(PoolConfig.builder("capped")
                .limits(PartialResources.of(ResourceType.CPU, 3))
                .child(PoolConfig.builder("inner"))).node("n1", node(8, 64));
        h.submit("op", ops("inner", 10, job(1, 1)));
        h.update();
        Decision decision = h.heartbeat("n1");
        assertEquals(3, decision.starts().size());
        assertEquals(Decision.IdleCode.LIMITS, decision.idle().get(0).code());
    }

    @Test
    void operationLimitsCapItsJobs() {
        ClusterHarness h = ClusterHarness.withPools(PoolConfig.builder("a")).node("n1", node(8, 64));
        h.submit("op", OperationSpec.builder().pool("a").limits(Resources.UNLIMITED.with(ResourceType.USER_SLOTS, 2))
                .jobs(10, job(1, 1)).build());
        h.update();
        assertEquals(2, h.heartbeat("n1").starts().size());
    }

    @Test
    void jobsTooBigForTheNodeAreFragmentationAndTheOperationIsNotRetried() {
        ClusterHarness h = ClusterHarness.withPools(PoolConfig.builder("a"), PoolConfig.builder("b"))
                .node("n1", node(8, 64));
        h.submit("huge", ops("a", 2, job(10, 1)));
        h.submit("small", ops("b", 3, job(1, 1)));
        h.update();
        Decision decision = h.heartbeat("n1");
        assertEquals(Set.of("small"), decision.starts().stream().map(Decision.JobStart::operationId).collect(Collectors.toSet()));
        Decision.IdleReason reason = decision.idle().get(0);
        assertEquals(Decision.IdleCode.FRAGMENTATION, reason.code());
        assertEquals(1, reason.operations());
        assertEquals(5, reason.free().cpu(), 1e-9);
    }

    @Test
    void tasksStartInSpecOrderWithTheirOwnResourcesAndEnv() {
        ClusterHarness h = ClusterHarness.withPools(PoolConfig.builder("a")).node("n1", node(8, 64));
        h.submit("op", OperationSpec.builder().pool("a")
                .task(new TaskSpec("prepare", 1, "echo prep", job(2, 1), java.util.Map.of("K", "V")))
                .task(TaskSpec.of("work", 2, job(1, 1), "echo work")).build());
        h.update();
        Decision decision = h.heartbeat("n1");
        assertEquals(List.of("prepare", "work", "work"), decision.starts().stream().map(Decision.JobStart::task).toList());
        assertEquals("V", decision.starts().get(0).env().get("K"));
        assertEquals(2, decision.starts().get(0).resources().cpu(), 1e-9);
    }

    @Test
    void fifoPoolServesByFifoIndexWhenAsked() {
        ClusterHarness h = ClusterHarness.withPools(PoolConfig.builder("q").fifo()
                .fifoSchedulingOrder(FifoPoolSchedulingOrder.FIFO)).node("n1", node(4, 64));
        h.submit("first", ops("q", 3, job(1, 1)));
        h.advance(Duration.ofSeconds(1));
        h.submit("second", ops("q", 3, job(1, 1)));
        h.update();
        h.heartbeat("n1");
        assertEquals(3, h.running("first"));
        assertEquals(1, h.running("second"));
    }

    @Test
    void decideChangesNothing() {
        ClusterHarness h = ClusterHarness.withPools(PoolConfig.builder("a"), PoolConfig.builder("b")).node("n1", node(8, 64));
        h.submit("x", ops("a", 20, job(1, 1)));
        h.submit("y", ops("b", 20, job(1, 3)));
        h.update();
        Heartbeat heartbeat = h.pendingHeartbeat("n1");
        Decision first = h.cluster().decide(heartbeat, h.now());
        Decision second = h.cluster().decide(heartbeat, h.now());
        assertEquals(first, second);
        assertEquals(0, h.running("x") + h.running("y"));
        h.cluster().apply(first, h.now());
        assertEquals(first.starts().size(), h.running("x") + h.running("y"));
    }

    @Test
    void unknownJobsAreAbortedAndLostJobsRescheduled() {
        ClusterHarness h = ClusterHarness.withPools(PoolConfig.builder("a")).node("n1", node(2, 8));
        h.submit("op", ops("a", 2, job(1, 1)));
        h.update();
        h.heartbeat("n1");
        Heartbeat fake = new Heartbeat("n1", Set.of(), node(2, 8), null,
                List.of(new Heartbeat.RunningJob("ghost-1", job(1, 1))), List.of());
        Decision decision = h.cluster().heartbeat(fake, h.now());
        assertEquals(List.of("ghost-1"), decision.aborts().stream().map(Decision.JobAbort::jobId).toList());
        assertEquals(Decision.AbortReason.UNKNOWN_JOB, decision.aborts().get(0).reason());
        // The node did not report the scheduler's two jobs: they were lost and go back to pending, then start again.
        assertEquals(2, decision.starts().size());
        assertEquals(2, h.cluster().registry().operation("op").abortedJobCount());
    }

    @Test
    void aNodeBackAfterItWasLostIsToldToKillWhatItStillRunsUntilItSaysItEnded() {
        ClusterHarness h = ClusterHarness.withPools(PoolConfig.builder("a")).node("n1", node(2, 8));
        h.submit("op", ops("a", 1, job(1, 1)));
        h.update();
        String orphan = h.heartbeat("n1").starts().get(0).jobId();
        h.advance(Duration.ofSeconds(601));
        assertEquals(1, h.cluster().checkNodes(h.now()).size(), "the silent node is lost with its job");
        assertEquals(null, h.cluster().node("n1"));

        // back, with its full list: the job it still runs was ended meanwhile
        Heartbeat back = new Heartbeat("n1", Set.of(), node(2, 8), null,
                List.of(new Heartbeat.RunningJob(orphan, job(1, 1))), List.of());
        Decision full = h.cluster().heartbeat(back, h.now());
        assertEquals(List.of(orphan), full.aborts().stream().map(Decision.JobAbort::jobId).toList());
        assertEquals(Decision.AbortReason.UNKNOWN_JOB, full.aborts().get(0).reason());
        // a delta does not list it: it is told again all the same
        Heartbeat delta = new Heartbeat("n1", Set.of(), node(2, 8), null, List.of(), List.of(), true);
        assertEquals(1, h.cluster().heartbeat(delta, h.now()).aborts().stream()
                .filter(abort -> abort.jobId().equals(orphan)).count(), "told until the node reports it ended");
        Heartbeat ended = new Heartbeat("n1", Set.of(), node(2, 8), null, List.of(),
                List.of(new Heartbeat.FinishedJob(orphan, Heartbeat.Outcome.ABORTED, null, "killed")), true);
        h.cluster().heartbeat(ended, h.now());
        assertEquals(0, h.cluster().heartbeat(delta, h.now()).aborts().size(), "nothing more to tell");
    }

    @Test
    void nodesJoinTheOneTreeTheirTagsMatch() {
        PoolTreeConfig cpu = withFilter(PoolTreeConfig.withPools("cpu", List.of(PoolConfig.builder("a").build())), "!gpu");
        PoolTreeConfig gpu = withFilter(PoolTreeConfig.withPools("gpu", List.of(PoolConfig.builder("g").build())), "gpu & (a100 | h100)");
        PoolTreeConfig any = withFilter(PoolTreeConfig.withPools("ssd", List.of()), "ssd");
        ClusterHarness h = ClusterHarness.of(cpu, gpu, any)
                .node("c1", node(4, 8)).node("g1", node(4, 8), "gpu", "h100").node("g2", node(4, 8), "gpu")
                .node("both", node(4, 8), "ssd");
        assertEquals("cpu", h.cluster().node("c1").tree());
        assertEquals("gpu", h.cluster().node("g1").tree());
        assertEquals(null, h.cluster().node("g2").tree());
        assertTrue(h.cluster().node("g2").treeProblem().contains("matches no pool tree"));
        assertEquals(null, h.cluster().node("both").tree());
        assertTrue(h.cluster().node("both").treeProblem().contains("more than one pool tree: [cpu, ssd]"),
                h.cluster().node("both").treeProblem());
        h.submit("gpu-op", OperationSpec.builder().tree("gpu", new io.grove.core.operation.TreeOptions("g", null, null))
                .jobs(2, job(1, 1)).build());
        h.update();
        assertEquals(0, h.heartbeat("c1").starts().size());
        assertEquals(2, h.heartbeat("g1").starts().size());
        assertEquals(Decision.IdleCode.AMBIGUOUS_TREE, h.heartbeat("both").idle().get(0).code());
    }

    static PoolTreeConfig withFilter(PoolTreeConfig tree, String filter) {
        return new PoolTreeConfig(tree.name(), filter, null, null, null, false, null, null, null, null, tree.pools());
    }

    @Test
    void anOperationRunsInSeveralTreesWithAPoolInEach() {
        PoolTreeConfig cpu = withFilter(PoolTreeConfig.withPools("cpu", List.of(PoolConfig.builder("a").build())), "!gpu");
        PoolTreeConfig gpu = withFilter(PoolTreeConfig.withPools("gpu", List.of(PoolConfig.builder("g").build())), "gpu");
        ClusterHarness h = ClusterHarness.of(cpu, gpu).node("c1", node(2, 8)).node("g1", node(2, 8), "gpu");
        h.submit("both", OperationSpec.builder().pool("a").tree("cpu")
                .tree("gpu", new io.grove.core.operation.TreeOptions("g", 2.0, null)).jobs(4, job(1, 1)).build());
        assertEquals(java.util.Map.of("cpu", "a", "gpu", "g"), h.cluster().registry().operation("both").poolByTree());
        h.update();
        h.heartbeatAll();
        assertEquals(4, h.running("both"));
        assertEquals(2, h.cluster().registry().operation("both").usageIn("gpu").userSlots(), 1e-9);
    }

    @Test
    void aNodeWhoseLimitsShrankLosesItsNewestJobs() {
        ClusterHarness h = ClusterHarness.withPools(PoolConfig.builder("a")).node("n1", node(4, 16));
        h.submit("op", ops("a", 4, job(1, 1)));
        h.update();
        h.heartbeat("n1");
        Heartbeat smaller = new Heartbeat("n1", Set.of(), node(2, 16), null,
                h.pendingHeartbeat("n1").runningJobs(), List.of());
        Decision decision = h.cluster().heartbeat(smaller, h.now());
        assertEquals(2, decision.aborts().size());
        assertTrue(decision.aborts().stream().allMatch(a -> a.reason() == Decision.AbortReason.RESOURCE_OVERCOMMIT));
        assertEquals(Set.of("op-3", "op-4"), decision.aborts().stream().map(Decision.JobAbort::jobId).collect(Collectors.toSet()));
        assertEquals(2, h.running("op"));
    }
}
