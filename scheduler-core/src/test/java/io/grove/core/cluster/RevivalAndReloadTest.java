package io.grove.core.cluster;

import static io.grove.core.cluster.ClusterHarness.job;
import static io.grove.core.cluster.ClusterHarness.node;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.core.operation.OperationSpec;
import io.grove.core.operation.OperationState;
import io.grove.core.operation.ReloadRefusedException;
import io.grove.core.pool.PoolConfig;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.pool.PoolsConfig;
import io.grove.core.resource.Resources;
import io.grove.core.schedule.Decision;
import io.grove.core.schedule.Heartbeat;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RevivalAndReloadTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private static PoolsConfig pools(PoolConfig... pools) {
        return new PoolsConfig("t", Map.of("t", PoolTreeConfig.withPools("t", List.of(pools))));
    }

    @Test
    void aReloadThatRemovesAPoolInUseIsRefusedWholeNamingThePoolAndItsOperations() {
        Cluster cluster = new Cluster(pools(PoolConfig.builder("a").build(),
                PoolConfig.builder("b").child(PoolConfig.builder("b1")).build()), ClusterSettings.DEFAULT);
        cluster.submit("x", OperationSpec.builder().pool("b1").jobs(1, job(1, 1)).build(), "u", T0);
        ReloadRefusedException refused = assertThrows(ReloadRefusedException.class,
                () -> cluster.reconfigure(pools(PoolConfig.builder("a").weight(5).build())));
        assertTrue(refused.getMessage().contains("pool \"b1\" in tree \"t\" holds [x]"), refused.getMessage());
        assertTrue(refused.getMessage().contains("pool \"b\" in tree \"t\" holds [x]"), refused.getMessage());
        assertEquals(1.0, cluster.registry().pools("t").configOf("a").effectiveWeight(), "nothing changed");
        cluster.abort("x", T0, "done");
        cluster.reconfigure(pools(PoolConfig.builder("a").weight(5).build()));
        assertEquals(5.0, cluster.registry().pools("t").configOf("a").effectiveWeight());
    }

    @Test
    void restoredJobsAreKeptWhenTheirNodeReportsThemAndAbortedWhenItDoesNot() {
        Cluster cluster = new Cluster(pools(PoolConfig.builder("a").build()), ClusterSettings.DEFAULT);
        cluster.revival().restoreIntegralState("t", Map.of());
        cluster.registry().restoreSubmitted("op", OperationSpec.builder().pool("a").jobs(4, job(1, 1)).build(), "u", T0);
        cluster.revival().restoreRunningJob("op", "op-7", "main", 2, 0, "n1", "t", T0, Set.of(), 0, T0);
        cluster.revival().restoreRunningJob("op", "op-9", "main", 0, 1, "n1", "t", T0, Set.of(), 0, T0);
        assertEquals(2, cluster.registry().operation("op").pendingJobCount());

        Resources limits = node(4, 16);
        Heartbeat back = new Heartbeat("n1", Set.of(), limits, null,
                List.of(new Heartbeat.RunningJob("op-7", job(1, 1))), List.of());
        cluster.report(back, T0.plusSeconds(5));
        assertEquals(OperationState.RUNNING, cluster.registry().operation("op").state());
        assertEquals(1, cluster.registry().operation("op").runningJobCount(), "op-9 was not reported: aborted");
        assertEquals(3, cluster.registry().operation("op").pendingJobCount());
        cluster.updateFairShare(T0.plusSeconds(5));
        Decision decision = cluster.decide(back, T0.plusSeconds(5));
        assertEquals(List.of("op-10", "op-11", "op-12"), decision.starts().stream().map(Decision.JobStart::jobId).toList());
    }

    @Test
    void aGangRevivedWithSomeRanksRunningAndOthersPendingIsStoppedToStartAgainWhole() {
        Cluster cluster = new Cluster(pools(PoolConfig.builder("a").build()), ClusterSettings.DEFAULT);
        cluster.registry().restoreSubmitted("g", OperationSpec.builder().pool("a").jobs(2, job(1, 1)).gang().build(), "u",
                T0);
        // the scheduler stopped between the two starts of the gang's plan: one rank runs, one waits
        cluster.revival().restoreRunningJob("g", "g-1", "main", 0, 0, "n1", "t", T0, Set.of(), 0, T0);
        Heartbeat n1 = new Heartbeat("n1", Set.of(), node(1, 16), null, List.of(new Heartbeat.RunningJob("g-1", job(1, 1))),
                List.of());
        Heartbeat n2 = new Heartbeat("n2", Set.of(), node(1, 16), null, List.of(), List.of());
        cluster.report(n1, T0.plusSeconds(1));
        cluster.report(n2, T0.plusSeconds(1));
        cluster.updateFairShare(T0.plusSeconds(1));
        Decision stop = cluster.decide(n1, T0.plusSeconds(1));
        assertEquals(List.of(Decision.PreemptionReason.GANG_RESTART),
                stop.preemptions().stream().map(Decision.JobPreemption::reason).toList());
        assertTrue(stop.preemptions().get(0).message().contains("its plan was lost with a restart of the scheduler"),
                stop.preemptions().get(0).message());
        assertTrue(cluster.decide(n2, T0.plusSeconds(1)).starts().isEmpty(), "the other rank does not start alone");
    }
}
