package io.grove.core.preempt;

import static io.grove.core.cluster.ClusterHarness.job;
import static io.grove.core.cluster.ClusterHarness.node;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.core.cluster.ClusterHarness;
import io.grove.core.operation.Job;
import io.grove.core.operation.OperationSpec;
import io.grove.core.operation.TaskSpec;
import io.grove.core.pool.PoolConfig;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.pool.PreemptionSettings;
import io.grove.core.pool.VictimOrder;
import io.grove.core.resource.Resources;
import io.grove.core.schedule.Decision;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Least lost work (docs/scheduling.md#least-lost-work): of the jobs starvation preemption may take,
 * on whichever node of the tree, it takes those whose loss costs the least work since their last
 * checkpoint (or start), and leaves alone a job expected to end within the graceful timeout.
 */
class LeastLostWorkTest {

    static final Duration SECOND = Duration.ofSeconds(1);

    /**
     * Two nodes of 2 cpu: {@code early}'s two jobs on n1 started 25 s before {@code late}'s two on n2,
     * both in batch; then {@code hurry} in urgent wants two (each operation's second job is preemptible).
     */
    static ClusterHarness twoNodes(VictimOrder order, Long lateExpectedMillis) {
        PoolTreeConfig tree = new PoolTreeConfig("default", null, null, null, null, false, null, null,
                PreemptionSettings.DEFAULT.withVictimOrder(order), null,
                List.of(PoolConfig.builder("batch").build(), PoolConfig.builder("urgent").build()));
        ClusterHarness h = ClusterHarness.of(tree).node("n1", node(2, 8)).node("n2", node(2, 8));
        h.submit("early", OperationSpec.builder().pool("batch").jobs(2, job(1, 1)).build());
        h.advance(SECOND).update().heartbeat("n1");
        h.advance(Duration.ofSeconds(25));
        h.submit("late", OperationSpec.builder().pool("batch").task(new TaskSpec("main", 2, "true", job(1, 1), Map.of(),
                0, null, lateExpectedMillis)).build());
        h.update().heartbeat("n2");
        assertEquals(2, h.running("early"));
        assertEquals(2, h.running("late"));
        h.submit("hurry", OperationSpec.builder().pool("urgent").jobs(2, job(1, 1)).build());
        return h;
    }

    /** The first job starvation preemption took (one job makes room for one of hurry's). */
    static Job taken(ClusterHarness h) {
        return taken(h, "early", "late");
    }

    /** The first job starvation preemption took, among the operations' jobs. */
    static Job taken(ClusterHarness h, String... operations) {
        List<Decision> decisions = h.decisions().stream().filter(d -> d.preemptions().stream()
                .anyMatch(p -> p.reason() == Decision.PreemptionReason.STARVATION)).toList();
        assertTrue(!decisions.isEmpty(), "hurry took jobs");
        assertEquals(1, decisions.get(0).preemptions().size(), "one job makes room: " + decisions.get(0));
        String id = decisions.get(0).preemptions().get(0).jobId();
        for (String op : operations) {
            for (Job job : h.cluster().registry().operation(op).finishedJobs()) {
                if (job.id().equals(id)) {
                    return job;
                }
            }
        }
        throw new AssertionError("no finished job " + id);
    }

    @Test
    void theNodeWhoseJobsStartedLastIsTakenWhicheverHeartbeatsFirst() {
        ClusterHarness h = twoNodes(VictimOrder.LEAST_LOST_WORK, null);
        h.rounds(60, SECOND);
        assertTrue(h.running("hurry") > 0);
        Job victim = taken(h);
        assertEquals("late", victim.operationId(), "n1 heartbeats first each round, yet n2's younger job is taken");
        assertTrue(victim.lostWorkMs() >= 30_000 && victim.lostWorkMs() <= 40_000,
                "it lost the work since its start: " + victim.lostWorkMs());
        assertTrue(victim.message().contains("s of work (no checkpoint reported)"), victim.message());
    }

    @Test
    void theReferenceOrderTakesOnTheFirstNodeThatHeartbeats() {
        ClusterHarness h = twoNodes(VictimOrder.NEWEST_FIRST, null);
        h.rounds(60, SECOND);
        assertTrue(h.running("hurry") > 0);
        assertEquals("early", taken(h).operationId(), "the control: without the choice across nodes n1 goes first");
    }

    @Test
    void aJobThatCheckpointedASecondAgoIsTakenInsteadOfAYoungerOne() {
        ClusterHarness h = twoNodes(VictimOrder.LEAST_LOST_WORK, null);
        List<String> early = h.cluster().registry().operation("early").runningJobs().stream().map(Job::id).toList();
        for (int i = 0; i < 60 && h.running("hurry") == 0; i++) {
            h.advance(SECOND).update();
            early.forEach(id -> h.machine("n1").checkpoint(id, SECOND));
            h.heartbeatAll();
        }
        assertTrue(h.running("hurry") > 0);
        Job victim = taken(h);
        assertEquals("early", victim.operationId());
        assertNotNull(victim.lastCheckpoint());
        assertTrue(victim.lostWorkMs() <= 2_000, "only the work since its last checkpoint is lost: " + victim.lostWorkMs());
        assertTrue(victim.message().contains("s of work since its last checkpoint"), victim.message());
    }

    @Test
    void aJobExpectedToEndWithinTheGraceIsLeftToEnd() {
        // late is expected to run 40 s: when hurry starves (about 30 s after its start) it ends within the 60-s grace
        ClusterHarness h = twoNodes(VictimOrder.LEAST_LOST_WORK, 40_000L);
        h.rounds(60, SECOND);
        assertTrue(h.running("hurry") > 0);
        assertEquals("early", taken(h).operationId(), "the older job is taken: the younger one is about to end");
    }

    @Test
    void ofAnOperationsJobsAboveItsFairShareTheOnesWithLeastAtStakeArePreemptibleNotTheNewest() {
        PoolTreeConfig tree = new PoolTreeConfig("default", null, null, null, null, false, null, null,
                PreemptionSettings.DEFAULT, null,
                List.of(PoolConfig.builder("batch").build(), PoolConfig.builder("urgent").build()));
        ClusterHarness h = ClusterHarness.of(tree).node("n1", node(1, 16)).node("n2", node(3, 16));
        h.submit("work", OperationSpec.builder().pool("batch").jobs(4, job(1, 1)).build());
        h.advance(SECOND).update().heartbeat("n1");
        String oldest = h.cluster().registry().operation("work").runningJobs().get(0).id();
        h.advance(Duration.ofSeconds(20)).update().heartbeat("n2");
        assertEquals(4, h.running("work"));
        h.submit("hurry", OperationSpec.builder().pool("urgent").jobs(2, job(1, 1)).build());
        for (int i = 0; i < 60 && h.running("hurry") == 0; i++) {
            h.advance(SECOND).update();
            h.machine("n1").checkpoint(oldest, Duration.ZERO);
            h.heartbeatAll();
        }
        assertTrue(h.running("hurry") > 0);
        Job victim = taken(h, "work");
        assertEquals(oldest, victim.id(), "the oldest job checkpointed a moment ago: it loses least, so it goes first");
    }

    @Test
    void aCheckpointIsHeldWithinTheJobsRun() {
        ClusterHarness h = twoNodes(VictimOrder.LEAST_LOST_WORK, null);
        Job late = h.cluster().registry().operation("late").runningJobsView().iterator().next();
        assertNull(late.lastCheckpoint());
        h.machine("n2").checkpoint(late.id(), Duration.ofDays(1));   // a file dated before the job started
        h.advance(SECOND).update().heartbeat("n2");
        assertEquals(late.startTime(), late.lastCheckpoint(), "a checkpoint before the start counts as the start");
        assertEquals(Resources.class, late.resources().getClass());
    }
}
