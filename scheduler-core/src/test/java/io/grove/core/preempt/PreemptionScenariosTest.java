package io.grove.core.preempt;

import static io.grove.core.cluster.ClusterHarness.job;
import static io.grove.core.cluster.ClusterHarness.node;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.core.cluster.ClusterHarness;
import io.grove.core.operation.OperationSpec;
import io.grove.core.operation.TaskSpec;
import io.grove.core.pool.PartialResources;
import io.grove.core.pool.PoolConfig;
import io.grove.core.pool.PreemptionSettings;
import io.grove.core.pool.VictimOrder;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.pool.StarvationSettings;
import io.grove.core.resource.ResourceType;
import io.grove.core.schedule.Decision;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Starvation and preemption (see docs/scheduling.md#preemptive-scheduling) through the harness. */
class PreemptionScenariosTest {

    private static final Duration SECOND = Duration.ofSeconds(1);

    private static OperationSpec ops(String pool, int jobs, double cpu) {
        return OperationSpec.builder().pool(pool).jobs(jobs, job(cpu, 1)).build();
    }

    @Test
    void aStarvingPoolGetsItsFairShareBackButNeverBelowTheVictimsGuarantee() {
        ClusterHarness h = ClusterHarness.withPools(
                PoolConfig.builder("prod").strongGuarantee(PartialResources.of(ResourceType.CPU, 6)),
                PoolConfig.builder("adhoc"));
        for (int i = 1; i <= 5; i++) {
            h.node("n" + i, node(2, 64));
        }
        h.submit("prod-op", ops("prod", 10, 1));
        h.rounds(1, SECOND);
        assertEquals(10, h.running("prod-op"));

        h.submit("adhoc-op", ops("adhoc", 10, 1));
        int lowest = 10;
        int roundsUntilFair = -1;
        for (int round = 1; round <= 45; round++) {
            h.rounds(1, SECOND);
            lowest = Math.min(lowest, h.running("prod-op"));
            if (roundsUntilFair < 0 && h.running("adhoc-op") == 2) {
                roundsUntilFair = round;
            }
        }
        // fair shares: prod 6/10 guaranteed + half of the remaining 4/10 = 0.8; adhoc 0.2.
        assertEquals(2, h.running("adhoc-op"));
        assertEquals(8, h.running("prod-op"));
        assertTrue(lowest >= 6, "prod never went below its guarantee, lowest " + lowest);
        // adhoc is below its fair share from the first update after its submission (t = 2 s), starving after
        // 30 s more; both preemptible jobs of prod are the newest, on one node, whose preemptive backoff is 5 s.
        assertTrue(roundsUntilFair > 31 && roundsUntilFair <= 31 + 1 + 5,
                "starving after 30 s, fair within a few heartbeats; took " + roundsUntilFair);
        assertTrue(h.preemptions().stream().allMatch(p -> p.preemptorOperationId().equals("adhoc-op")
                && p.reason() == Decision.PreemptionReason.STARVATION));
    }

    @Test
    void atMostOnePreemptiveStartPerHeartbeatAndABackoffPerNode() {
        ClusterHarness h = ClusterHarness.withPools(PoolConfig.builder("a"), PoolConfig.builder("b"))
                .node("n1", node(10, 64));
        h.submit("a-op", ops("a", 10, 1));
        h.rounds(1, SECOND);
        h.submit("b-op", ops("b", 10, 1));
        h.rounds(31, SECOND);
        assertEquals(0, h.running("b-op"));
        h.rounds(1, SECOND);
        assertEquals(1, h.running("b-op"), "one preemptive start");
        h.rounds(4, SECOND);
        assertEquals(1, h.running("b-op"), "the node's preemptive backoff is 5 s");
        h.rounds(1, SECOND);
        assertEquals(2, h.running("b-op"));
    }

    @Test
    void granularity_aBigJobThatDoesNotFitTheFreeRoomGetsItByPreemption() {
        ClusterHarness h = ClusterHarness.withPools(PoolConfig.builder("small"), PoolConfig.builder("big"))
                .node("n1", node(32, 256));
        h.submit("small-op", ops("small", 25, 1));
        h.rounds(1, SECOND);
        h.submit("big-op", ops("big", 500, 10));
        h.rounds(1, SECOND);
        Decision regular = h.decisions().get(h.decisions().size() - 1);
        assertEquals(Decision.IdleCode.FRAGMENTATION, regular.idle().get(0).code());
        assertEquals(7, regular.idle().get(0).free().cpu(), 1e-9);
        h.rounds(31, SECOND);
        assertEquals(1, h.running("big-op"), "preemption made room for one 10-cpu job");
        assertEquals(22, h.running("small-op"));
    }

    @Test
    void gracefulOperationsAreInterruptedWithTheLongGraceNotPreempted() {
        ClusterHarness h = ClusterHarness.withPools(PoolConfig.builder("a"), PoolConfig.builder("b"))
                .node("n1", node(4, 64));
        h.submit("g", OperationSpec.builder().pool("a").graceful().jobs(4, job(1, 1)).build());
        h.rounds(1, SECOND);
        h.submit("other", ops("b", 4, 1));
        h.rounds(1, SECOND);
        List<Decision.JobPreemption> graceful = h.preemptions();
        assertEquals(2, graceful.size(), "the two jobs above the fair share of 2");
        assertTrue(graceful.stream().allMatch(p -> p.reason() == Decision.PreemptionReason.GRACEFUL
                && p.grace().equals(Duration.ofSeconds(60)) && p.preemptorOperationId() == null));
        h.rounds(1, SECOND);
        assertEquals(2, h.preemptions().size(), "an interruption is sent once");
        h.rounds(60, SECOND);
        assertEquals(2, h.running("g"));
        assertEquals(2, h.running("other"));
    }

    @Test
    void noPingPong_aJobStartedByPreemptionIsNotTakenBackForItsVictim() {
        StarvationSettings aggressive = new StarvationSettings(Duration.ofSeconds(30), Duration.ofSeconds(120), 0.8,
                true, true, 1.0);
        // the reference's order counts the victim's jobs in start order, so its 4-cpu job is the one taken
        // (least lost work would protect the job with more at stake and take the 3-cpu one)
        PoolTreeConfig tree = new PoolTreeConfig("t", null, null, null, null, false, null, aggressive,
                PreemptionSettings.DEFAULT.withVictimOrder(VictimOrder.NEWEST_FIRST),
                null, List.of(PoolConfig.builder("pv").build(), PoolConfig.builder("pp").build()));
        ClusterHarness h = ClusterHarness.of(tree).node("n1", node(10, 64));
        h.submit("victim", OperationSpec.builder().pool("pv")
                .task(TaskSpec.of("small", 1, job(3, 1), "x")).task(TaskSpec.of("large", 1, job(4, 1), "x")).build());
        h.rounds(1, SECOND);
        h.submit("preemptor", ops("pp", 10, 1));
        h.rounds(1, SECOND);
        assertEquals(3, h.running("preemptor"));

        // The preemptor starves aggressively after 120 s and takes the victim's 4-cpu job.
        h.rounds(125, Duration.ofSeconds(1));
        List<Decision.JobPreemption> first = h.preemptions();
        assertEquals(1, first.size(), first.toString());
        assertEquals(Decision.PreemptionReason.AGGRESSIVE_STARVATION, first.get(0).reason());
        String startedByPreemption = first.get(0).preemptorJobId();
        assertEquals(java.util.Set.of("victim"), h.job(startedByPreemption).startedByPreempting());
        assertEquals(7, h.running("preemptor"));

        // Now the victim starves aggressively in turn; it gets its job back, but not that one.
        h.rounds(200, Duration.ofSeconds(1));
        List<Decision.JobPreemption> back = h.preemptions().subList(1, h.preemptions().size());
        assertFalse(back.isEmpty(), "the victim starved and preempted in turn");
        assertTrue(back.stream().noneMatch(p -> p.jobId().equals(startedByPreemption)), back.toString());
        assertEquals(2, h.running("victim"));
    }

    @Test
    void conditionalPreemption_jobsBlockedByAPoolGoOnlyToOperationsBelowIt() {
        io.grove.core.pool.PoolPreemptionConfig noNormal = new io.grove.core.pool.PoolPreemptionConfig(null, null, null,
                null, null, false);
        ClusterHarness h = ClusterHarness.withPools(PoolConfig.builder("guarded").preemption(noNormal),
                PoolConfig.builder("outside")).node("n1", node(10, 64));
        h.submit("donor", OperationSpec.builder().pool("guarded").jobs(10, job(1, 1)).build());
        h.rounds(1, SECOND);
        assertEquals(10, h.running("donor"));

        h.submit("outsider", ops("outside", 10, 1));
        h.rounds(45, SECOND);
        assertEquals(0, h.running("outsider"), "the guarded pool blocks: its jobs are not for operations outside it");
        assertTrue(h.preemptions().isEmpty());

        h.submit("insider", OperationSpec.builder().pool("guarded").jobs(10, job(1, 1)).build());
        h.rounds(45, SECOND);
        assertTrue(h.running("insider") > 0, "an operation below the blocking pool may take them");
        assertTrue(h.preemptions().stream().allMatch(p -> p.preemptorOperationId().equals("insider")
                && p.operationId().equals("donor")), h.preemptions().toString());
        assertEquals(0, h.running("outsider"));
    }
}
