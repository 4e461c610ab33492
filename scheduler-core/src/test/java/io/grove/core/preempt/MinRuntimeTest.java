package io.grove.core.preempt;

import static io.grove.core.cluster.ClusterHarness.job;
import static io.grove.core.cluster.ClusterHarness.node;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.core.cluster.ClusterHarness;
import io.grove.core.operation.OperationSpec;
import io.grove.core.pool.PoolConfig;
import io.grove.core.pool.PoolPreemptionConfig;
import io.grove.core.schedule.Decision;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** {@code min_job_runtime_before_preemption}: a starving operation takes no job younger than its pool's minimum. */
class MinRuntimeTest {

    static final Duration SECOND = Duration.ofSeconds(1);

    static OperationSpec ops(String pool, int jobs) {
        return OperationSpec.builder().pool(pool).jobs(jobs, job(1, 1)).build();
    }

    static ClusterHarness harness(Duration minRuntime) {
        PoolConfig.Builder batch = PoolConfig.builder("batch");
        if (minRuntime != null) {
            batch.preemption(new PoolPreemptionConfig(null, null, null, null, null, null, minRuntime));
        }
        return ClusterHarness.withPools(batch, PoolConfig.builder("urgent")).node("n1", node(4, 64));
    }

    static long starvationPreemptions(ClusterHarness h) {
        return h.preemptions().stream().filter(p -> p.reason() == Decision.PreemptionReason.STARVATION
                || p.reason() == Decision.PreemptionReason.AGGRESSIVE_STARVATION).count();
    }

    @Test
    void youngJobsOfThePoolAreNotTakenUntilTheyHaveRunTheirMinimum() {
        ClusterHarness h = harness(Duration.ofMinutes(10));
        h.submit("long", ops("batch", 4));
        h.rounds(1, SECOND);
        assertEquals(4, h.running("long"));
        h.submit("hurry", ops("urgent", 4));
        h.rounds(5 * 60, SECOND);
        assertEquals(0, h.running("hurry"), "starving, but every job it could take is younger than 10 min");
        assertEquals(0, starvationPreemptions(h));
        String said = io.grove.core.cluster.PendingExplainer.explain(h.cluster(), h.cluster().registry().operation("hurry"))
                .get(0).checks().stream().filter(c -> c.code() == io.grove.core.cluster.PendingCheck.Code.STARVATION)
                .findFirst().orElseThrow().message();
        assertTrue(said.contains("4 job(s) are protected by min_job_runtime_before_preemption, the first until "), said);
        h.rounds(6 * 60, SECOND);
        assertTrue(h.running("hurry") > 0, "once they have run 10 min, they may be taken");
        assertTrue(starvationPreemptions(h) > 0);
    }

    @Test
    void withoutAMinimumTheStarvingOperationTakesThemWithinItsTimeout() {
        ClusterHarness h = harness(null);
        h.submit("long", ops("batch", 4));
        h.rounds(1, SECOND);
        h.submit("hurry", ops("urgent", 4));
        h.rounds(5 * 60, SECOND);
        assertTrue(h.running("hurry") > 0, "the same cluster without the rule preempts");
        io.grove.core.operation.Job taken = h.cluster().registry().operation("long").finishedJobs().get(0);
        assertEquals(new io.grove.core.operation.PreemptedFor("starvation", "hurry", "urgent"), taken.preemptedFor(),
                "a preempted job says what it was taken for");
        assertTrue(taken.message().contains("of operation hurry in pool urgent (using 0% of the tree, fair share 50%)"),
                taken.message());
    }
}
