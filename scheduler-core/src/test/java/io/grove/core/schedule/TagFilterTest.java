package io.grove.core.schedule;

import static io.grove.core.cluster.ClusterHarness.job;
import static io.grove.core.cluster.ClusterHarness.node;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.core.cluster.ClusterHarness;
import io.grove.core.operation.Job;
import io.grove.core.operation.OperationSpec;
import io.grove.core.operation.TreeOptions;
import io.grove.core.pool.PoolConfig;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Scheduling tag filters: where a pool's or an operation's jobs may run, and what it may get. */
class TagFilterTest {

    private static final Duration SECOND = Duration.ofSeconds(1);

    private static ClusterHarness cluster(PoolConfig.Builder... pools) {
        return ClusterHarness.withPools(pools)
                .node("gpu-1", node(8, 64), "gpu", "a100")
                .node("gpu-2", node(8, 64), "gpu")
                .node("cpu-1", node(16, 64), "cpu");
    }

    private static long runningOn(ClusterHarness h, String operation, String tagPrefix) {
        return h.cluster().registry().operation(operation).runningJobs().stream()
                .map(Job::nodeId).filter(n -> n.startsWith(tagPrefix)).count();
    }

    @Test
    void aPoolsJobsRunOnlyOnMatchingNodesAndItsFairShareIsCappedByThem() {
        ClusterHarness h = cluster(PoolConfig.builder("train").schedulingTagFilter("gpu"), PoolConfig.builder("etl"));
        h.submit("t", OperationSpec.builder().pool("train").jobs(100, job(1, 1)).build());
        h.rounds(2, SECOND);
        assertEquals(16, h.running("t"), "both gpu nodes full, nothing on the cpu node");
        assertEquals(0, runningOn(h, "t", "cpu"));
        // The tree has 32 cpu; train may use only the 16 of its nodes: its limits share is 0.5.
        assertEquals(0.5, h.cluster().fairShare("physical").element("train").limitsShare().cpu(), 1e-12);
        assertEquals(0.5, h.cluster().fairShare("physical").element("train").fairShare().total().cpu(), 1e-12);

        Decision idle = h.decisions().stream().filter(d -> d.nodeId().equals("cpu-1")).reduce((a, b) -> b).orElseThrow();
        assertEquals(Decision.IdleCode.UNMATCHED_TAGS, idle.idle().get(0).code(), idle.idle().toString());
        assertTrue(idle.idle().get(0).message().contains("scheduling tag filter"), idle.idle().get(0).message());

        h.submit("e", OperationSpec.builder().pool("etl").jobs(100, job(1, 1)).build());
        h.rounds(2, SECOND);
        assertEquals(16, h.running("e"), "the cpu node goes to the pool that may use it");
    }

    @Test
    void anOperationsOwnFilterTopLevelOrPerTreeNarrowsFurther() {
        ClusterHarness h = cluster(PoolConfig.builder("train").schedulingTagFilter("gpu"));
        h.submit("a100-only", OperationSpec.builder().pool("train").schedulingTagFilter("a100").jobs(100, job(1, 1)).build());
        h.submit("per-tree", OperationSpec.builder().tree("physical", new TreeOptions("train", null, null, "!a100"))
                .jobs(100, job(1, 1)).build());
        h.rounds(3, SECOND);
        assertEquals(8, h.running("a100-only"));
        assertEquals(8, runningOn(h, "a100-only", "gpu-1"));
        assertEquals(8, h.running("per-tree"));
        assertEquals(8, runningOn(h, "per-tree", "gpu-2"));
    }

    /**
     * a-op fills a cpu node (its oldest jobs) and a gpu node; then b-op (pool b: gpu only) and c-op
     * (pool c: cpu only) arrive and starve. With three pools a-op's fair share is about a third, so
     * jobs on both nodes are preemptible: b-op takes its room on the gpu node only, c-op on the cpu
     * node only.
     */
    @Test
    void aStarvingOperationIsStartedByPreemptionOnlyWhereItsFilterMatches() {
        ClusterHarness h = ClusterHarness.withPools(PoolConfig.builder("a"), PoolConfig.builder("b").schedulingTagFilter("gpu"),
                        PoolConfig.builder("c").schedulingTagFilter("cpu"))
                .node("cpu-1", node(10, 64), "cpu")
                .node("gpu-1", node(10, 64), "gpu");
        h.submit("a-op", OperationSpec.builder().pool("a").jobs(20, job(1, 1)).build());
        h.rounds(1, SECOND);
        assertEquals(20, h.running("a-op"));
        h.submit("b-op", OperationSpec.builder().pool("b").jobs(20, job(1, 1)).build());
        h.submit("c-op", OperationSpec.builder().pool("c").jobs(20, job(1, 1)).build());
        h.rounds(90, SECOND);
        assertTrue(h.running("b-op") > 0 && h.running("c-op") > 0, h.running("b-op") + " " + h.running("c-op"));
        assertEquals(h.running("b-op"), runningOn(h, "b-op", "gpu"), "every job of b-op is on the gpu node");
        assertEquals(h.running("c-op"), runningOn(h, "c-op", "cpu"), "every job of c-op is on the cpu node");
        for (Decision decision : h.decisions()) {
            String excluded = decision.nodeId().equals("cpu-1") ? "b-op" : "c-op";
            assertTrue(decision.starts().stream().noneMatch(s -> s.operationId().equals(excluded)), decision.toString());
        }
    }
}
