package io.grove.core.cluster;

import static io.grove.core.cluster.ClusterHarness.job;
import static io.grove.core.cluster.ClusterHarness.node;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.core.forecast.ForecastSnapshot;
import io.grove.core.forecast.StartForecast;
import io.grove.core.node.NodeCondition;
import io.grove.core.operation.OperationSpec;
import io.grove.core.operation.TaskSpec;
import io.grove.core.pool.GangReservations;
import io.grove.core.pool.PoolConfig;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.pool.PreemptionSettings;
import io.grove.core.pool.StarvationSettings;
import io.grove.core.schedule.Decision;
import io.grove.core.schedule.GangReservation;
import io.grove.core.schedule.Heartbeat;
import io.grove.core.schedule.HeartbeatScheduler;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A gang that starved past the tree's {@code gang_reservation_timeout} holds the nodes it is to
 * start on (docs/scheduling.md#reservations-with-backfill): a job whose time limit ends before the
 * reservation's predicted start starts there, one without a limit does not, and the gang starts by
 * the predicted start.
 */
public class GangReservationTest {

    static final Duration SECOND = Duration.ofSeconds(1);

    /** Jobs of one cpu, with a time limit ({@code null}: none). */
    static OperationSpec jobs(int count, Long limitMillis) {
        return OperationSpec.builder().pool("batch").task(new TaskSpec("main", count, "work", job(1, 1), Map.of(), 0,
                null, null, limitMillis)).build();
    }

    /**
     * Rack r1 is n1 (4 cpu) and rack r2 is n2 (4 cpu). On n1, {@code early} runs two jobs that end
     * after 20 s (as their expected_duration says, within their 60-s limit) and {@code bounded} two
     * that reach their 60-s limit (they declare 90 s); on n2, {@code unbounded} runs
     * four without a limit. Jobs are never taken for a starving operation (they are too young), so
     * only a reservation gets the gang {@code g} (2 ranks of 2 cpu in one rack) its room.
     */
    public static ClusterHarness cluster(GangReservations reservations) {
        StarvationSettings starvation = new StarvationSettings(Duration.ofSeconds(2), Duration.ofSeconds(4), 0.8, true, true,
                1.0);
        PreemptionSettings preemption = new PreemptionSettings(1.0, 0.2, io.grove.core.pool.PartialResources.EMPTY, Duration.ofSeconds(5), true, true, true,
                Duration.ofSeconds(10), Duration.ofSeconds(5), true, Duration.ofHours(1),
                PreemptionSettings.DEFAULT.victimOrder(), reservations);
        PoolTreeConfig tree = new PoolTreeConfig("physical", null, null, null, null, false, null, starvation, preemption,
                null, List.of(PoolConfig.builder("batch").build(), PoolConfig.builder("train").build()))
                .withTopologyLevels(List.of("rack"));
        ClusterHarness h = ClusterHarness.of(tree).nodeAt("n1", node(4, 16), "rack=r1").nodeAt("n2", node(4, 16), "rack=r2");
        h.submit("early", OperationSpec.builder().pool("batch").task(new TaskSpec("main", 2, "work", job(1, 1), Map.of(), 0,
                null, 20_000L, 60_000L)).build());
        h.submit("bounded", OperationSpec.builder().pool("batch").task(new TaskSpec("main", 2, "work", job(1, 1), Map.of(),
                0, null, 90_000L, 60_000L)).build());
        h.jobsOf("early", Duration.ofSeconds(20));
        h.update().heartbeat("n1");
        h.submit("unbounded", jobs(4, null));
        h.update().heartbeat("n2");
        assertEquals(2, h.running("early"));
        assertEquals(2, h.running("bounded"));
        assertEquals(4, h.running("unbounded"));
        h.submit("g", OperationSpec.builder().pool("train").jobs(2, job(2, 1)).gang().topology("rack", true).build());
        h.submit("short", jobs(1, 10_000L));
        h.jobsOf("short", Duration.ofSeconds(8));
        h.submit("long", jobs(1, null));
        return h;
    }

    public static final GangReservations AFTER_10S = new GangReservations(Duration.ofSeconds(10), 4);

    /** The message of an operation's explanation's check of {@code code}. */
    static String check(ClusterHarness h, String operation, PendingCheck.Code code) {
        return PendingExplainer.explain(h.cluster(), h.cluster().registry().operation(operation)).get(0).checks().stream()
                .filter(c -> c.code() == code).findFirst().orElseThrow().message();
    }

    static GangReservation reservation(ClusterHarness h) {
        return h.cluster().gang("physical", "g").reservation();
    }

    @Test
    void aStarvingGangHoldsTheRackThatFreesFirstAndBackfillLetsOnlyJobsThatEndBeforeItsStart() {
        ClusterHarness h = cluster(AFTER_10S);
        Instant began = h.now();
        h.rounds(10, SECOND);
        assertNull(reservation(h), "not before the gang starved for gang_reservation_timeout");
        String waits = check(h, "g", PendingCheck.Code.GANG);
        assertTrue(waits.contains("needs 2 ranks (2 cpu, 1Gi memory each) at once") && waits.contains(
                "it has starved for room since ") && waits.contains(": it gets a reservation at ")
                && waits.contains("(gang_reservation_timeout 10s)"), waits);
        h.rounds(6, SECOND);
        GangReservation held = reservation(h);
        assertNotNull(held, "starving since about 2 s, reserved 10 s later");
        assertEquals("rack r1", held.domain(), "r2's jobs have no time limit");
        assertEquals(List.of("n1"), List.copyOf(held.nodes().keySet()));
        assertEquals(began.plus(Duration.ofSeconds(65)), held.start(), "bounded's jobs: 60-s limit + 5-s grace");
        String reservedGang = check(h, "g", PendingCheck.Code.GANG);
        assertTrue(reservedGang.contains("it holds a reservation since " + held.since() + ": rack r1 (node n1), predicted "
                + "start " + held.start()), reservedGang);

        h.rounds(6, SECOND);   // early's jobs ended at 20 s: 2 cpu free on n1, short and long wait there
        assertEquals(1, h.running("short"), "short's 10-s limit ends before the gang's start");
        assertEquals(0, h.running("long"), "long has no limit: it could still run when the gang is to start");
        List<String> idle = new ArrayList<>();
        for (Decision decision : h.decisions()) {
            decision.idle().stream().filter(r -> r.code() == Decision.IdleCode.RESERVED)
                    .forEach(r -> idle.add(r.message()));
        }
        assertTrue(!idle.isEmpty() && idle.get(idle.size() - 1).contains("gang g is to start on node n1"), idle.toString());
        String longWaits = check(h, "long", PendingCheck.Code.NODES_FULL);
        assertTrue(longWaits.contains("are reserved for starving gangs: node n1 for gang g"), longWaits);

        while (h.running("g") < 2 && h.now().isBefore(began.plus(Duration.ofSeconds(90)))) {
            h.rounds(1, SECOND);
        }
        assertEquals(2, h.running("g"), "the gang starts once bounded's jobs reach their limit");
        assertTrue(!h.now().isAfter(held.start().plus(SECOND)), "started at " + h.now() + ", predicted " + held.start());
        assertNull(reservation(h), "dropped once the gang was planned");
        assertEquals(0, h.running("long"));
    }

    @Test
    void theForecastMakesTheReservationAsTheDaemonWouldAndAReservedGangStartsByItsStart() {
        ClusterHarness h = cluster(AFTER_10S);
        Instant began = h.now();
        h.rounds(5, SECOND);
        assertNull(reservation(h));
        StartForecast.Prediction ahead = StartForecast.predict(ForecastSnapshot.take(h.cluster(), h.now()), "g", 1,
                BUDGET, System::nanoTime);
        assertNotNull(ahead.nextStart(), ahead.toString());
        Instant likely = ahead.nextStart().likely();
        assertTrue(!likely.isBefore(began.plus(Duration.ofSeconds(60))) && !likely.isAfter(began.plus(Duration.ofSeconds(67))),
                "the copy reserves n1 at 15 s, long does not take early's room, the gang starts when bounded's "
                        + "jobs reach their limit: " + ahead);

        h.rounds(11, SECOND);
        GangReservation held = reservation(h);
        assertNotNull(held);
        StartForecast.Prediction reserved = StartForecast.predict(ForecastSnapshot.take(h.cluster(), h.now()), "g", 1,
                BUDGET, System::nanoTime);
        assertTrue(!reserved.nextStart().latest().isAfter(held.start()), reserved.toString());
        assertTrue(reserved.assumptions().stream().anyMatch(a -> a.startsWith("it holds a reservation on rack r1 (node n1), "
                + "predicted start " + held.start())), reserved.assumptions().toString());
    }

    static final long BUDGET = 5_000_000_000L;

    @Test
    void aGangWhoseReservedNodeCannotStartJobsReservesOtherNodesAtOnce() {
        ClusterHarness h = cluster(AFTER_10S);
        h.rounds(16, SECOND);
        assertEquals(List.of("n1"), List.copyOf(reservation(h).nodes().keySet()));
        Heartbeat full = h.pendingHeartbeat("n1");
        h.cluster().report(new Heartbeat(full.nodeId(), full.tags(), full.resourceLimits(), full.resourceUsage(),
                full.runningJobs(), List.of(), false, new NodeCondition(-1, "disk full: test"), List.of(), List.of(),
                full.topology()), h.now());
        h.update();
        GangReservation moved = reservation(h);
        assertNotNull(moved, "not a gang_reservation_timeout later: it had starved long enough already");
        assertEquals(List.of("n2"), List.copyOf(moved.nodes().keySet()));
        assertNull(moved.start(), "n2's jobs have no time limit");
    }

    @Test
    void aGangWhoseReservedNodeIsDrainedReservesOtherNodesAtOnce() {
        ClusterHarness h = cluster(AFTER_10S);
        h.rounds(16, SECOND);
        assertEquals(List.of("n1"), List.copyOf(reservation(h).nodes().keySet()));
        h.cluster().drains().drain(new io.grove.core.node.NodeDrain("n1", "maintenance", false, "root", h.now()));
        h.update();
        assertEquals(List.of("n2"), List.copyOf(reservation(h).nodes().keySet()), "the drained node is given up");
    }

    @Test
    void anotherGangIsPlannedOnAReservedNodeOnlyIfItEndsBeforeTheStart() {
        ClusterHarness h = cluster(AFTER_10S);
        h.rounds(16, SECOND);
        assertEquals(List.of("n1"), List.copyOf(reservation(h).nodes().keySet()));
        h.submit("unlimited", OperationSpec.builder().pool("train").jobs(1, job(1, 1)).gang().topology("rack", true).build());
        h.submit("brief", OperationSpec.builder().pool("train").task(new TaskSpec("main", 1, "work", job(1, 1), Map.of(), 0,
                null, null, 10_000L)).gang().topology("rack", true).build());
        h.rounds(8, SECOND);   // early's jobs ended: 2 cpu free on n1
        assertEquals(0, h.running("unlimited"), "a gang without a limit could still run at g's start");
        assertTrue(h.running("brief") == 1 || h.cluster().registry().operation("brief").completedJobCount()
                + h.cluster().registry().operation("brief").failedJobCount() > 0, "a gang bounded to end before it starts");
    }

    /**
     * The preemptive pass on a reserved node: {@code early}'s two jobs fill n1, {@code hurry} starves
     * for two jobs (with a time limit of {@code hurryLimitMillis}, or none); n1's decision with a
     * reservation on it (the whole node, predicted to start in 100 s) or without.
     */
    static Decision preemptiveDecision(Long hurryLimitMillis, boolean reserved) {
        PoolTreeConfig tree = PoolTreeConfig.withPools("default", List.of(PoolConfig.builder("batch").build(),
                PoolConfig.builder("urgent").build()));
        ClusterHarness h = ClusterHarness.of(tree).node("n1", node(2, 8));
        h.submit("early", OperationSpec.builder().pool("batch").jobs(2, job(1, 1)).build());
        h.advance(SECOND).update().heartbeat("n1");
        h.submit("hurry", OperationSpec.builder().pool("urgent").task(new TaskSpec("main", 2, "work", job(1, 1), Map.of(),
                0, null, null, hurryLimitMillis)).build());
        for (int i = 0; i < 40; i++) {
            h.advance(SECOND).update();   // hurry starves; n1 does not heartbeat, it is asked once below
        }
        GangReservation holding = new GangReservation("some-gang", "default", null,
                Map.of("n1", node(2, 8)), h.now(), h.now().plus(Duration.ofSeconds(100)));
        return HeartbeatScheduler.decide(h.cluster().schedulingIndex("default"), h.cluster().node("n1"),
                h.pendingHeartbeat("n1"), h.now(), h.cluster().registry(), true, List.of(), null, reserved ? holding : null);
    }

    @Test
    void onAReservedNodeStarvationPreemptsOnlyForAJobThatEndsBeforeTheStart() {
        assertTrue(!preemptiveDecision(null, false).preemptions().isEmpty(), "without a reservation hurry preempts");
        assertTrue(preemptiveDecision(null, true).preemptions().isEmpty(), "hurry's jobs have no limit");
        assertTrue(!preemptiveDecision(10_000L, true).preemptions().isEmpty(), "10 s + the 60-s grace end before 100 s");
    }

    @Test
    void withoutReservationsTheJobWithoutALimitTakesTheRoomAndTheGangWaitsOn() {
        ClusterHarness h = cluster(GangReservations.OFF);
        h.rounds(22, SECOND);
        assertEquals(1, h.running("long"), "nothing holds n1: long starts as soon as early's jobs end");
        h.rounds(60, SECOND);
        assertNull(reservation(h));
        assertEquals(0, h.running("g"), "bounded's end frees 2 cpu, long keeps 1: the gang never fits");
    }

    @Test
    void aReservationGoesWhenTheGangStopsStarvingForRoomAndAtMostMaxAreHeld() {
        ClusterHarness h = cluster(new GangReservations(Duration.ofSeconds(10), 1));
        h.submit("g2", OperationSpec.builder().pool("train").jobs(2, job(2, 1)).gang().topology("rack", true).build());
        h.rounds(16, SECOND);
        assertNotNull(reservation(h));
        assertNull(h.cluster().gang("physical", "g2").reservation(), "max_gang_reservations 1");
        assertNotNull(h.cluster().gang("physical", "g2").starvingSince());
        h.cluster().abort("g", h.now(), "no longer needed");
        h.rounds(1, SECOND);
        assertNull(reservation(h));
        assertNotNull(h.cluster().gang("physical", "g2").reservation(), "the next gang starving longest gets one");
    }
}
