package io.grove.core.operation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.core.pool.EphemeralSubpoolConfig;
import io.grove.core.pool.PoolConfig;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.pool.PoolsConfig;
import io.grove.core.resource.Resources;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Operation-count limits, lightweight operations and ephemeral pools (see docs/scheduling.md#operation-count-limits). */
class OperationCountsTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private static OperationRegistry registry(PoolConfig.Builder... pools) {
        List<PoolConfig> built = java.util.Arrays.stream(pools).map(PoolConfig.Builder::build).toList();
        PoolTreeConfig tree = PoolTreeConfig.withPools("t", built);
        return new OperationRegistry(new PoolsConfig("t", Map.of("t", tree)));
    }

    private static OperationSpec spec(String pool, OperationType type) {
        return OperationSpec.builder().pool(pool).type(type).jobs(1, Resources.cpu(1)).build();
    }

    /** The scenario derived_operation_count_limits_and_lightweight of fair-share-samples.yaml. */
    @Test
    void countLimitsAndLightweightScenario() {
        OperationRegistry r = registry(
                PoolConfig.builder("P").maxRunningOperationCount(2).maxOperationCount(3),
                PoolConfig.builder("L").fifo().lightweight().maxRunningOperationCount(1).maxOperationCount(10));
        OperationCounts counts = r.counts("t");

        assertEquals(OperationState.RUNNING, r.submit("o1", spec("P", OperationType.MAP), "u", T0).state());
        assertCounts(counts, "P", 1, 1, 0);
        assertEquals(OperationState.RUNNING, r.submit("o2", spec("P", OperationType.MAP), "u", T0).state());
        assertCounts(counts, "P", 2, 2, 0);
        assertEquals(OperationState.PENDING, r.submit("o3", spec("P", OperationType.MAP), "u", T0).state());
        assertCounts(counts, "P", 3, 2, 0);
        PendingReason reason = r.pendingReason("o3", "t");
        assertEquals(new PendingReason("t", "P", 2, 1), reason);
        assertTrue(reason.message().startsWith("Max running operation count violated"), reason.message());

        SubmitException refused = assertThrows(SubmitException.class,
                () -> r.submit("o4", spec("P", OperationType.MAP), "u", T0));
        assertEquals(SubmitError.TOO_MANY_OPERATIONS, refused.code());
        assertEquals("Limit for the number of concurrent operations 3 for pool \"P\" in tree \"t\" has been reached",
                refused.getMessage());
        assertNull(r.operation("o4"));

        finish(r, "o1");
        assertEquals(OperationState.RUNNING, r.operation("o3").state());
        assertCounts(counts, "P", 2, 2, 0);

        assertEquals(OperationState.RUNNING, r.submit("v1", spec("L", OperationType.VANILLA), "u", T0).state());
        assertCounts(counts, "L", 1, 0, 1);
        assertEquals(OperationState.RUNNING, r.submit("v2", spec("L", OperationType.VANILLA), "u", T0).state());
        assertCounts(counts, "L", 2, 0, 2);
        assertEquals(OperationState.RUNNING, r.submit("m1", spec("L", OperationType.MAP), "u", T0).state());
        assertEquals(1, counts.counts("L").runningOperationCount());
        assertEquals(OperationState.PENDING, r.submit("m2", spec("L", OperationType.MAP), "u", T0).state());

        // Counts propagate to every ancestor: the root sees everything above.
        assertCounts(counts, PoolTreeConfig.ROOT, 6, 3, 2);
    }

    /** A submission waiting for its record: it holds its place, runs nowhere, and goes without a trace if withdrawn. */
    @Test
    void aHeldSubmissionHoldsItsPlaceAndIsWithdrawnWithoutATrace() {
        OperationRegistry r = registry(PoolConfig.builder("P").maxRunningOperationCount(1).maxOperationCount(2));
        OperationCounts counts = r.counts("t");
        Operation held = r.submitHeld("o1", spec("P", OperationType.MAP), "u", T0, "k1");
        assertTrue(held.held());
        assertFalse(held.runsIn("t"), "nothing of a held operation runs");
        assertEquals(OperationState.PENDING, r.submit("o2", spec("P", OperationType.MAP), "u", T0).state(),
                "the held one keeps its running place");
        assertThrows(SubmitException.class, () -> r.submit("o3", spec("P", OperationType.MAP), "u", T0),
                "nor is its place in the count given away");
        assertEquals(List.of("o1", "o2"), r.operationsAfter(null).stream().map(Operation::id).toList());

        assertEquals(held, r.bySubmissionKey("u", "k1"));
        assertNull(r.bySubmissionKey("v", "k1"), "a key is its submitter's");
        List<OperationRegistry.Activation> activated = r.withdraw("o1");
        assertNull(r.bySubmissionKey("u", "k1"), "a withdrawn submission's key is free again");
        assertNull(r.operation("o1"));
        assertEquals(List.of(new OperationRegistry.Activation("o2", "t")), activated);
        assertEquals(OperationState.RUNNING, r.operation("o2").state());
        assertCounts(counts, "P", 1, 1, 0);
        assertEquals(List.of("o2"), r.operationsAfter(null).stream().map(Operation::id).toList());
        assertEquals(List.of(), r.operationsAfter("o2"));
        assertThrows(IllegalStateException.class, () -> r.withdraw("o2"), "only a held operation is withdrawn");

        Operation released = r.submitHeld("o4", spec("P", OperationType.MAP), "u", T0, null);
        r.release("o4");
        assertFalse(released.held());
        assertEquals(List.of(released), r.operationsAfter("o2"));
    }

    private static void assertCounts(OperationCounts counts, String pool, int operations, int running, int lightweight) {
        PoolOperationCounts c = counts.counts(pool);
        assertEquals(operations, c.operationCount(), pool + " operation_count");
        assertEquals(running, c.runningOperationCount(), pool + " running_operation_count");
        assertEquals(lightweight, c.lightweightRunningOperationCount(), pool + " lightweight_running_operation_count");
    }

    private static void finish(OperationRegistry r, String id) {
        r.abort(id, T0, "test");
    }

    @Test
    void pendingOperationsQueueAtTheLowestViolatingPoolAndStartInOrder() {
        OperationRegistry r = registry(PoolConfig.builder("top").maxRunningOperationCount(2)
                .child(PoolConfig.builder("a").maxRunningOperationCount(1))
                .child(PoolConfig.builder("b")));
        r.submit("a1", spec("a", OperationType.MAP), "u", T0);
        r.submit("a2", spec("a", OperationType.MAP), "u", T0);
        r.submit("b1", spec("b", OperationType.MAP), "u", T0);
        r.submit("b2", spec("b", OperationType.MAP), "u", T0);
        r.submit("b3", spec("b", OperationType.MAP), "u", T0);
        assertEquals(new PendingReason("t", "a", 1, 1), r.pendingReason("a2", "t"));
        assertEquals(new PendingReason("t", "top", 2, 1), r.pendingReason("b2", "t"));
        assertEquals(new PendingReason("t", "top", 2, 2), r.pendingReason("b3", "t"));

        finish(r, "b1");   // room in top: b2 starts (first in top's queue)
        assertEquals(OperationState.RUNNING, r.operation("b2").state());
        assertEquals(new PendingReason("t", "top", 2, 1), r.pendingReason("b3", "t"));
        finish(r, "a1");   // room in a and in top: a2 starts
        assertEquals(OperationState.RUNNING, r.operation("a2").state());
        assertEquals(OperationState.PENDING, r.operation("b3").state());
    }

    @Test
    void ephemeralPoolsAreMadeOnDemandAndRemovedWhenEmpty() {
        OperationRegistry r = registry(PoolConfig.builder("research")
                .createEphemeralSubpools(new EphemeralSubpoolConfig(null, 3, 5, null)));
        Operation mine = r.submit("o1", OperationSpec.builder().jobs(1, Resources.cpu(1)).build(), "alice", T0);
        assertEquals("alice", mine.poolByTree().get("t"));
        assertTrue(r.pools("t").isEphemeral("alice"));
        Operation sub = r.submit("o2", spec("research", OperationType.VANILLA), "bob", T0);
        assertEquals("research$bob", sub.poolByTree().get("t"));
        assertEquals("research", r.pools("t").parentOf("research$bob"));
        assertEquals(3, r.pools("t").maxRunningOperationCount("research$bob"));
        assertTrue(r.pools("t").effectiveConfig().pools().stream().anyMatch(p -> p.name().equals("alice")));

        finish(r, "o1");
        finish(r, "o2");
        assertFalse(r.pools("t").contains("alice"));
        assertFalse(r.pools("t").contains("research$bob"));
    }

    @Test
    void refusalsCarryTypedCodes() {
        OperationRegistry r = registry(PoolConfig.builder("closed").forbidImmediateOperations()
                .child(PoolConfig.builder("open")));
        assertEquals(SubmitError.UNKNOWN_POOL,
                assertThrows(SubmitException.class, () -> r.submit("x", spec("nope", OperationType.MAP), "u", T0)).code());
        assertEquals(SubmitError.FORBIDDEN_IMMEDIATE_OPERATIONS,
                assertThrows(SubmitException.class, () -> r.submit("x", spec("closed", OperationType.MAP), "u", T0)).code());
        assertEquals(SubmitError.UNKNOWN_TREE, assertThrows(SubmitException.class, () -> r.submit("x",
                OperationSpec.builder().pool("open").tree("gpu").jobs(1, Resources.cpu(1)).build(), "u", T0)).code());
        assertEquals(SubmitError.INVALID_SPEC, assertThrows(SubmitException.class, () -> r.submit("x",
                OperationSpec.builder().jobs(1, Resources.cpu(1)).build(), "bad user!", T0)).code());
        assertEquals(0, r.operationCount());
        assertEquals(OperationState.RUNNING, r.submit("x", spec("open", OperationType.MAP), "u", T0).state());
    }

    @Test
    void failedJobsAreRetriedUntilTheLimitThenTheOperationFails() {
        OperationRegistry r = registry(PoolConfig.builder("p"));
        Operation op = r.submit("o", OperationSpec.builder().pool("p").maxFailedJobCount(1)
                .jobs(2, Resources.cpu(1)).build(), "u", T0);
        TaskSpec task = op.spec().tasks().get("main");
        Job first = r.startJob(op, task, "n", "t", T0, java.util.Set.of(), 0);
        r.endJob(first.id(), JobState.FAILED, T0, JobEndReason.FAILED, "exit code 1");
        assertEquals(2, op.pendingJobCount(), "a failed job is retried");
        Job again = r.startJob(op, task, "n", "t", T0, java.util.Set.of(), 0);
        assertEquals(first.index(), again.index());
        assertEquals(1, again.attempt());
        Job other = r.startJob(op, task, "n", "t", T0, java.util.Set.of(), 0);
        OperationRegistry.JobEnd end = r.endJob(again.id(), JobState.FAILED, T0, JobEndReason.FAILED, "exit code 1");
        assertEquals(OperationState.FAILED, end.operationState());
        assertEquals(List.of(other), end.abortedWithOperation());
        assertEquals(0, r.runningJobCount());
    }
}
