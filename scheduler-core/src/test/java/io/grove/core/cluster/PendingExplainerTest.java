package io.grove.core.cluster;

import static io.grove.core.cluster.ClusterHarness.job;
import static io.grove.core.cluster.ClusterHarness.node;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.core.cluster.PendingCheck.Code;
import io.grove.core.cluster.PendingExplainer.TreeExplanation;
import io.grove.core.operation.OperationSpec;
import io.grove.core.pool.PartialResources;
import io.grove.core.pool.PoolConfig;
import io.grove.core.resource.ResourceType;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** "Why is it pending?": each reason through the real cluster, in the scheduler's order. */
class PendingExplainerTest {

    private static final Duration SECOND = Duration.ofSeconds(1);

    private static TreeExplanation explain(ClusterHarness h, String id) {
        List<TreeExplanation> trees = PendingExplainer.explain(h.cluster(), h.cluster().registry().operation(id));
        assertEquals(1, trees.size());
        return trees.get(0);
    }

    private static List<Code> codes(TreeExplanation explanation) {
        return explanation.checks().stream().map(PendingCheck::code).toList();
    }

    @Test
    void anOperationQueuedBehindACountLimitSaysWhichPoolAndWhere() {
        ClusterHarness h = ClusterHarness.withPools(PoolConfig.builder("a").maxRunningOperationCount(1))
                .node("n1", node(4, 16));
        h.submit("first", OperationSpec.builder().pool("a").jobs(1, job(1, 1)).build());
        h.submit("second", OperationSpec.builder().pool("a").jobs(1, job(1, 1)).build());
        h.submit("third", OperationSpec.builder().pool("a").jobs(1, job(1, 1)).build());
        h.rounds(1, SECOND);

        PendingCheck verdict = explain(h, "third").verdict();
        assertEquals(Code.COUNT_LIMIT, verdict.code());
        assertEquals("a", verdict.pool());
        assertEquals(1, verdict.limit());
        assertEquals(2, verdict.queuePosition(), "second in the queue, after 'second'");
        assertTrue(verdict.message().contains("position 2 in its queue"), verdict.message());
    }

    @Test
    void aPoolAtItsLimitsIsNamedBeforeTheNodes() {
        ClusterHarness h = ClusterHarness.withPools(PoolConfig.builder("parent")
                .limits(PartialResources.of(ResourceType.CPU, 2)).child(PoolConfig.builder("leaf")))
                .node("n1", node(8, 32));
        h.submit("op", OperationSpec.builder().pool("leaf").jobs(5, job(1, 1)).build());
        h.rounds(2, SECOND);
        assertEquals(2, h.running("op"));

        TreeExplanation explanation = explain(h, "op");
        PendingCheck verdict = explanation.verdict();
        assertEquals(Code.RESOURCE_LIMITS, verdict.code());
        assertEquals("parent", verdict.pool(), "the ancestor whose limit binds, not the leaf");
        assertEquals(0, verdict.available().get(ResourceType.CPU), 1e-9);
        assertTrue(verdict.message().contains("pool parent is at its resource limits"), verdict.message());
        assertEquals(List.of(Code.RESOURCE_LIMITS, Code.FAIR_SHARE, Code.NODES_FULL), codes(explanation).subList(0, 3));
        assertFalse(explanation.checks().get(2).blocks(), "the node has room: only the limit blocks");
    }

    @Test
    void aJobLargerThanEveryNodeAndNodesWithoutMatchingTagsAreTold() {
        ClusterHarness h = ClusterHarness.withPools(PoolConfig.builder("a")).node("n1", node(4, 16))
                .node("n2", node(8, 16));
        h.submit("huge", OperationSpec.builder().pool("a").jobs(1, job(16, 1)).build());
        h.submit("gpu", OperationSpec.builder().pool("a").jobs(1, job(1, 1)).schedulingTagFilter("gpu").build());
        h.rounds(1, SECOND);

        PendingCheck huge = explain(h, "huge").verdict();
        assertEquals(Code.JOB_LARGER_THAN_EVERY_NODE, huge.code());
        assertEquals(8, huge.available().get(ResourceType.CPU), 1e-9, "the largest node");
        assertEquals(16, huge.job().get(ResourceType.CPU), 1e-9);

        PendingCheck gpu = explain(h, "gpu").verdict();
        assertEquals(Code.NO_MATCHING_NODE, gpu.code());
        assertTrue(gpu.message().contains("none of the 2 online nodes"), gpu.message());
    }

    @Test
    void fullNodesGiveTheMostFreeRoomAndStarvationWhenPreemptionMayStart() {
        ClusterHarness h = ClusterHarness.withPools(PoolConfig.builder("a"), PoolConfig.builder("b"))
                .node("n1", node(4, 16));
        h.submit("hog", OperationSpec.builder().pool("a").jobs(4, job(1, 1)).build());
        h.rounds(1, SECOND);
        h.submit("late", OperationSpec.builder().pool("b").jobs(2, job(1, 1)).build());
        h.update();

        TreeExplanation explanation = explain(h, "late");
        assertEquals(Code.NODES_FULL, explanation.verdict().code());
        assertEquals("n1", explanation.verdict().node());
        assertEquals(0, explanation.verdict().available().get(ResourceType.CPU), 1e-9);
        PendingCheck fair = explanation.checks().stream().filter(c -> c.code() == Code.FAIR_SHARE).findFirst().orElseThrow();
        assertEquals(List.of("late", "b", "<Root>"), fair.levels().stream().map(PendingCheck.Level::id).toList());
        assertTrue(fair.levels().get(0).fairShare() > fair.levels().get(0).usageShare());
        PendingCheck starvation = explanation.checks().get(explanation.checks().size() - 1);
        assertEquals(Code.STARVATION, starvation.code());
        assertNotNull(starvation.at(), "when it starves");
        assertTrue(starvation.at().isAfter(h.now()), starvation.message());
    }

    @Test
    void anOperationWithRoomEverywhereIsSchedulableAndAFinishedOneSaysSo() {
        ClusterHarness h = ClusterHarness.withPools(PoolConfig.builder("a")).node("n1", node(4, 16));
        h.submit("op", OperationSpec.builder().pool("a").jobs(8, job(1, 1)).build());
        h.update();
        assertEquals(Code.SCHEDULABLE, explain(h, "op").verdict().code());

        h.cluster().abort("op", h.now(), "test");
        assertEquals(Code.FINISHED, explain(h, "op").verdict().code());
    }
}
