package io.grove.core.cluster;

import static io.grove.core.cluster.ClusterHarness.job;
import static io.grove.core.cluster.ClusterHarness.node;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.core.operation.OperationSpec;
import io.grove.core.pool.PoolConfig;
import io.grove.core.pool.PoolPause;
import io.grove.core.schedule.Decision;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** A paused pool starts no job in its subtree while running ones go on; a drained one stops them too. */
class PoolPauseTest {

    static final Duration SECOND = Duration.ofSeconds(1);
    static final Instant T = Instant.parse("2026-11-27T10:00:00Z");

    static OperationSpec ops(String pool, int jobs) {
        return OperationSpec.builder().pool(pool).jobs(jobs, job(1, 1)).build();
    }

    ClusterHarness harness() {
        return ClusterHarness.withPools(PoolConfig.builder("research").child(PoolConfig.builder("nlp")),
                PoolConfig.builder("prod")).node("n1", node(8, 64));
    }

    @Test
    void aPausedPoolStartsNothingInItsSubtreeAndRunningJobsGoOnUntilItIsResumed() {
        ClusterHarness h = harness();
        h.submit("a", ops("nlp", 2));
        h.rounds(1, SECOND);
        assertEquals(2, h.running("a"));
        h.cluster().pause(new PoolPause("physical", "research", false, "alice", T));
        h.submit("b", ops("nlp", 3));
        h.submit("c", ops("prod", 3));
        h.rounds(3, SECOND);
        assertEquals(2, h.running("a"), "running jobs go on");
        assertEquals(0, h.running("b"), "nothing new starts below the paused pool");
        assertEquals(3, h.running("c"), "other pools are not held");
        assertEquals("research", h.cluster().pauseOf("physical", h.cluster().registry().operation("b")).pool());
        assertNull(h.cluster().pauseOf("physical", h.cluster().registry().operation("c")));

        assertTrue(h.cluster().resume("physical", "research"));
        h.rounds(2, SECOND);
        assertEquals(3, h.running("b"), "resumed: its jobs start");
    }

    @Test
    void aDrainedPoolsRunningJobsAreStoppedGracefullyAndDoNotStartAgain() {
        ClusterHarness h = harness();
        h.submit("a", ops("nlp", 4));
        h.rounds(1, SECOND);
        assertEquals(4, h.running("a"));
        h.cluster().pause(new PoolPause("physical", "research", true, "alice", T));
        h.rounds(1, SECOND);
        long drained = h.preemptions().stream().filter(p -> p.reason() == Decision.PreemptionReason.POOL_DRAINED).count();
        assertEquals(4, drained, "every running job of the subtree is told to stop");
        h.rounds(90, SECOND);
        assertEquals(0, h.running("a"), "stopped after their grace, and not started again");
        h.cluster().resume("physical", "research");
        h.rounds(2, SECOND);
        assertEquals(4, h.running("a"));
    }

    @Test
    void aPauseGoesWithItsPoolWhenAReloadRemovesIt() {
        ClusterHarness h = harness();
        h.cluster().pause(new PoolPause("physical", "prod", false, "alice", T));
        h.cluster().reconfigure(new io.grove.core.pool.PoolsConfig("physical", java.util.Map.of("physical",
                io.grove.core.pool.PoolTreeConfig.withPools("physical", java.util.List.of(
                        PoolConfig.builder("research").build())))));
        assertTrue(h.cluster().pauses("physical").isEmpty());
    }

    @Test
    void onlyAPoolOfTheTreeCanBePaused() {
        ClusterHarness h = harness();
        assertThrows(IllegalArgumentException.class,
                () -> h.cluster().pause(new PoolPause("physical", "nope", false, "alice", T)));
    }
}
