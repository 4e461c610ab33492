package io.grove.core.preempt;

import static io.grove.core.cluster.ClusterHarness.job;
import static io.grove.core.cluster.ClusterHarness.node;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.grove.core.cluster.ClusterHarness;
import io.grove.core.operation.OperationPreemption;
import io.grove.core.operation.OperationSpec;
import io.grove.core.pool.PoolConfig;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.pool.StarvationSettings;
import io.grove.core.resource.Resources;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** An operation's own starvation and preemption settings make it only more conservative than its pool. */
class OperationPreemptionSettingsTest {

    private static final Duration SECOND = Duration.ofSeconds(1);
    private static final double INF = Double.POSITIVE_INFINITY;

    private static OperationSpec ops(String pool, int jobs, OperationPreemption own) {
        return OperationSpec.builder().pool(pool).jobs(jobs, job(1, 1)).preemption(own).build();
    }

    /**
     * Two pools over one 10-cpu node, pool starvation off, so that an operation's own status decides
     * (with it on, its pool would starve after the pool's timeout and carry the operation with it).
     */
    private static ClusterHarness harness() {
        StarvationSettings operationsOnly = new StarvationSettings(Duration.ofSeconds(30), Duration.ofSeconds(120), 0.8,
                false, false, 1.0);
        PoolTreeConfig tree = new PoolTreeConfig("physical", null, null, null, null, false, null, operationsOnly, null,
                null, List.of(PoolConfig.builder("a").build(), PoolConfig.builder("b").build()));
        return ClusterHarness.of(tree).node("n1", node(10, 64));
    }

    /** Round at which b-op first runs a job on a node that a-op filled; b-op submitted at round 1. */
    private static int firstStart(OperationPreemption aOwn, OperationPreemption bOwn) {
        ClusterHarness h = harness();
        h.submit("a-op", ops("a", 10, aOwn));
        h.rounds(1, SECOND);
        h.submit("b-op", ops("b", 10, bOwn));
        for (int round = 1; round <= 150; round++) {
            h.rounds(1, SECOND);
            if (h.running("b-op") > 0) {
                return round;
            }
        }
        return -1;
    }

    @Test
    void aLongerStarvationTimeoutOfItsOwnDelaysPreemption() {
        int inherited = firstStart(OperationPreemption.NONE, OperationPreemption.NONE);
        // Below its fair share from the first update after submission (round 1), starving after the tree's 30 s.
        assertEquals(32, inherited);
        int longer = firstStart(OperationPreemption.NONE, new OperationPreemption(null, 90_000L, null));
        assertEquals(92, longer, "90 s of its own instead of 30");
        int shorter = firstStart(OperationPreemption.NONE, new OperationPreemption(null, 5_000L, null));
        assertEquals(inherited, shorter, "a shorter timeout than the pool's does not count");
    }

    @Test
    void aLowerStarvationToleranceOfItsOwnMeansItStarvesOnlyFurtherBelowItsShare() {
        // With tolerance 0.05 it is "below" only while usage < 5% of its fair share of 5 cpu, i.e. at 0 running;
        // the first preemption gives it one job and it stops starving: exactly one job is taken.
        ClusterHarness h = harness();
        h.submit("a-op", ops("a", 10, OperationPreemption.NONE));
        h.rounds(1, SECOND);
        h.submit("b-op", ops("b", 10, new OperationPreemption(0.05, null, null)));
        h.rounds(120, SECOND);
        assertEquals(1, h.running("b-op"));
        assertEquals(9, h.running("a-op"));
    }

    @Test
    void aNonPreemptibleThresholdOfItsOwnKeepsThatMuchOfItsUsage() {
        // a-op keeps 8 cpu whatever its fair share (5): only 2 of its jobs can be taken for b-op.
        OperationPreemption keepEight = new OperationPreemption(null, null, new Resources(INF, 8, INF, INF, INF));
        ClusterHarness h = ClusterHarness.withPools(PoolConfig.builder("a"), PoolConfig.builder("b"))
                .node("n1", node(10, 64));
        h.submit("a-op", ops("a", 10, keepEight));
        h.rounds(1, SECOND);
        h.submit("b-op", ops("b", 10, OperationPreemption.NONE));
        h.rounds(120, SECOND);
        assertEquals(8, h.running("a-op"));
        assertEquals(2, h.running("b-op"));
    }
}
