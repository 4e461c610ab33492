package io.grove.core.cluster;

import static io.grove.core.cluster.ClusterHarness.job;
import static io.grove.core.cluster.ClusterHarness.node;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.core.forecast.ForecastSnapshot;
import io.grove.core.operation.Job;
import io.grove.core.operation.OperationPreemption;
import io.grove.core.operation.OperationSpec;
import io.grove.core.pool.PoolConfig;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.pool.PreemptionSettings;
import io.grove.core.pool.StarvationSettings;
import io.grove.core.pool.VictimOrder;
import io.grove.core.schedule.Decision;
import io.grove.core.schedule.GangScheduling;
import io.grove.core.schedule.GangReservation;
import io.grove.core.schedule.GangPlan;
import io.grove.core.resource.Resources;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * A starving gang frees one whole domain of its required level (docs/scheduling.md#preemption-for-gangs):
 * the rack whose jobs lose the least work, no job outside it, and no more jobs than its ranks need.
 */
class GangPreemptionTest {

    static final Duration SECOND = Duration.ofSeconds(1);

    /**
     * Racks r1 (n1, n2: 4 cpu each), r2 (n3, n4) and r3 (n5, n6: 2 cpu each). {@code old} runs two
     * jobs on n5, then eight on r1; 25 s later {@code young} two on n6, then eight on r2. Each keeps
     * its first two (within its fair share); the aggressive stage may take the others.
     */
    static ClusterHarness racks() {
        StarvationSettings starvation = new StarvationSettings(Duration.ofSeconds(2), Duration.ofSeconds(4), 0.8, true, true,
                1.0);
        PoolTreeConfig tree = new PoolTreeConfig("physical", null, null, null, null, false, null, starvation,
                PreemptionSettings.DEFAULT.withVictimOrder(VictimOrder.LEAST_LOST_WORK), null,
                List.of(PoolConfig.builder("batch").build(), PoolConfig.builder("train").build()))
                .withTopologyLevels(List.of("rack"));
        ClusterHarness h = ClusterHarness.of(tree)
                .nodeAt("n1", node(4, 16), "rack=r1").nodeAt("n2", node(4, 16), "rack=r1")
                .nodeAt("n3", node(4, 16), "rack=r2").nodeAt("n4", node(4, 16), "rack=r2")
                .nodeAt("n5", node(2, 16), "rack=r3").nodeAt("n6", node(2, 16), "rack=r3");
        h.submit("old", OperationSpec.builder().pool("batch").jobs(10, job(1, 1)).build());
        h.advance(SECOND).update().heartbeat("n5");
        h.advance(SECOND).update().heartbeat("n1");
        h.heartbeat("n2");
        h.advance(Duration.ofSeconds(25));
        h.submit("young", OperationSpec.builder().pool("batch").jobs(10, job(1, 1)).build());
        h.update().heartbeat("n6");
        h.advance(SECOND).update().heartbeat("n3");
        h.heartbeat("n4");
        assertEquals(10, h.running("old"));
        assertEquals(10, h.running("young"));
        return h;
    }

    static OperationSpec gang(int ranks, double cpu) {
        return OperationSpec.builder().pool("train").jobs(ranks, job(cpu, 1)).gang().topology("rack", true).build();
    }

    /** Rounds until the gang runs, with {@code each} before every round's heartbeats. */
    static void untilRunning(ClusterHarness h, String gang, int ranks, Consumer<ClusterHarness> each) {
        for (int i = 0; i < 60 && h.running(gang) < ranks; i++) {
            h.advance(SECOND).update();
            each.accept(h);
            h.heartbeatAll();
        }
        assertEquals(ranks, h.running(gang), "the gang got its room");
    }

    /** The jobs taken for the gang, by the node they ran on. */
    static Map<String, Set<String>> victims(ClusterHarness h, String gang) {
        Map<String, Set<String>> out = new HashMap<>();
        for (Decision decision : h.decisions()) {
            for (Decision.JobPreemption preemption : decision.preemptions()) {
                if (gang.equals(preemption.preemptorOperationId())) {
                    out.computeIfAbsent(decision.nodeId(), n -> new TreeSet<>()).add(preemption.jobId());
                }
            }
        }
        return out;
    }

    static Set<String> rankNodes(ClusterHarness h, String gang) {
        Set<String> out = new TreeSet<>();
        h.cluster().registry().operation(gang).runningJobs().forEach(job -> out.add(job.nodeId()));
        return out;
    }

    @Test
    void aStarvingGangFreesTheRackWhoseJobsLoseTheLeastAndNoJobElsewhere() {
        ClusterHarness h = racks();
        h.submit("g", gang(2, 4));
        untilRunning(h, "g", 2, x -> { });
        assertEquals(Set.of("n3", "n4"), rankNodes(h, "g"), "rack r2: its jobs started 25 s after r1's");
        Map<String, Set<String>> taken = victims(h, "g");
        assertEquals(Set.of("n3", "n4"), taken.keySet(), "no job outside the rack: " + taken);
        assertEquals(8, taken.values().stream().mapToInt(Set::size).sum(), "the whole rack was needed: " + taken);
        assertEquals(10, h.running("old"));
        Job victim = h.cluster().registry().operation("young").finishedJobs().get(0);
        assertTrue(victim.message().startsWith("preempted for gang g in pool train, whose 2 ranks (4 cpu, 1Gi memory each) "
                + "need room in rack r2, aggressive starvation in tree physical; it loses "), victim.message());
        assertEquals("g", victim.preemptedFor().operationId());
        assertTrue(victim.lostWorkMs() > 0);
    }

    /**
     * Gang g waits 150 s for rack r2, where its own pool's jobs run that long, and starts there. A
     * starving operation of prod then needs a whole node: g's ranks have lost seconds of work, batch's
     * jobs on r1 two and a half minutes, but taking g would waste its wait too, so a node of r1 is
     * freed. Without the wait counted (docs/scheduling.md#least-lost-work), g is taken.
     */
    @Test
    void aGangThatJustStartedAfterALongWaitIsNotTheCheapestVictim() {
        StarvationSettings starvation = new StarvationSettings(Duration.ofSeconds(2), Duration.ofSeconds(4), 0.8, true, true,
                1.0);
        PoolTreeConfig tree = new PoolTreeConfig("physical", null, null, null, null, false, null, starvation,
                PreemptionSettings.DEFAULT.withVictimOrder(VictimOrder.LEAST_LOST_WORK), null,
                List.of(PoolConfig.builder("batch").build(), PoolConfig.builder("train").build(),
                        PoolConfig.builder("prod").build()))
                .withTopologyLevels(List.of("rack"));
        ClusterHarness h = ClusterHarness.of(tree)
                .nodeAt("n1", node(4, 16), "rack=r1").nodeAt("n2", node(4, 16), "rack=r1")
                .nodeAt("n3", node(4, 16), "rack=r2").nodeAt("n4", node(4, 16), "rack=r2");
        h.submit("old", OperationSpec.builder().pool("batch").jobs(8, job(1, 1)).build());
        h.advance(SECOND).update().heartbeat("n1");
        h.heartbeat("n2");
        h.submit("fill", OperationSpec.builder().pool("train").jobs(8, job(1, 1)).build());
        h.jobsOf("fill", Duration.ofSeconds(150));
        h.advance(SECOND).update().heartbeat("n3");
        h.heartbeat("n4");
        assertEquals(8, h.running("old"));
        assertEquals(8, h.running("fill"));
        Instant submitted = h.now();
        // g never starves (tolerance 0): it waits for room without taking any
        h.submit("g", OperationSpec.builder().pool("train").jobs(2, job(4, 1)).gang().topology("rack", true)
                .preemption(new OperationPreemption(0.0, null, null)).build());
        for (int i = 0; i < 200 && h.running("g") < 2; i++) {
            h.advance(SECOND).update().heartbeatAll();
        }
        assertEquals(Set.of("n3", "n4"), rankNodes(h, "g"), "fill's rack, once its jobs ended");
        assertTrue(Duration.between(submitted, h.now()).toSeconds() >= 140, "g waited for fill's jobs to end");
        assertEquals(Map.of(), victims(h, "g"));
        h.submit("p", OperationSpec.builder().pool("prod").jobs(1, job(4, 1)).build());
        for (int i = 0; i < 30 && h.running("p") < 1; i++) {
            h.advance(SECOND).update().heartbeatAll();
        }
        assertEquals(1, h.running("p"), "p got its room");
        assertEquals(2, h.running("g"), "g's ranks have lost seconds of work, but its wait to assemble again is counted: " + victims(h, "p"));
        assertEquals(1, victims(h, "p").size());
        assertTrue(Set.of("n1", "n2").containsAll(victims(h, "p").keySet()), "a node of old's: " + victims(h, "p"));
    }

    /**
     * A gang that restarted waits again from its restart, not from its submission; the forecast's
     * copy takes that wait from the snapshot (it has no ended attempts to find the restart in).
     */
    @Test
    void aRestartedGangsWaitCountsFromItsRestartAndTheForecastKeepsIt() {
        ClusterHarness h = ClusterHarness.of(PoolTreeConfig.withPools("physical", List.of(PoolConfig.builder("train").build()))
                .withTopologyLevels(List.of("rack")))
                .nodeAt("n1", node(4, 16), "rack=r1").nodeAt("n2", node(4, 16), "rack=r1");
        h.submit("g", gang(2, 4));
        h.advance(Duration.ofSeconds(30));
        untilRunning(h, "g", 2, x -> { });
        Instant first = h.job("g-1").startTime();
        assertEquals(Duration.between(h.cluster().registry().operation("g").submitTime(), first).toMillis(),
                h.job("g-1").gangWaitMs(), "the first start waited from the submission");
        h.advance(Duration.ofSeconds(100));
        assertTrue(h.machine(h.job("g-1").nodeId()).fail("g-1"));
        h.update().heartbeatAll();
        h.advance(Duration.ofSeconds(20)).update().heartbeatAll();   // the other rank stops; the gang is planned again
        untilRunning(h, "g", 2, x -> { });
        Job rank = h.cluster().registry().operation("g").runningJobs().get(0);
        Instant restarted = h.cluster().registry().operation("g").finishedJobs().stream().map(Job::finishTime)
                .max(Instant::compareTo).orElseThrow();
        assertTrue(restarted.isAfter(first.plusSeconds(99)), "the ranks ended at the restart");
        assertEquals(Duration.between(restarted, rank.startTime()).toMillis(), rank.gangWaitMs(),
                "waited from its restart, not its submission");
        ForecastSnapshot snapshot = ForecastSnapshot.take(h.cluster(), h.now());
        assertEquals(rank.gangWaitMs(), snapshot.operation("g").running().get(0).gangWaitMs());
    }

    @Test
    void noMoreJobsAreTakenThanTheRanksNeed() {
        ClusterHarness h = racks();
        h.submit("g", gang(2, 3));
        untilRunning(h, "g", 2, x -> { });
        Map<String, Set<String>> taken = victims(h, "g");
        assertEquals(Set.of("n3", "n4"), taken.keySet(), taken.toString());
        assertEquals(List.of(3, 3), taken.values().stream().map(Set::size).toList(), "3 cpu on each of two nodes: " + taken);
        assertEquals(4, h.running("young"), "two on n6, one left on each of n3 and n4");
    }

    @Test
    void theOlderRackIsFreedOnceItsJobsCheckpoint() {
        ClusterHarness h = racks();
        List<String> old = h.cluster().registry().operation("old").runningJobs().stream()
                .filter(job -> !job.nodeId().equals("n5")).map(Job::id).toList();
        h.submit("g", gang(2, 4));
        untilRunning(h, "g", 2, x -> {
            for (String id : old) {
                String node = x.cluster().registry().runningJob(id) == null ? null : x.cluster().registry().runningJob(id).nodeId();
                if (node != null) {
                    x.machine(node).checkpoint(id, SECOND);
                }
            }
        });
        assertEquals(Set.of("n1", "n2"), rankNodes(h, "g"), "rack r1's jobs lose a second each, r2's half a minute");
        assertEquals(Set.of("n1", "n2"), victims(h, "g").keySet());
        assertEquals(10, h.running("young"));
    }

    /** The nodes of the victims of g's plan, made once g starves, with n3 and n4 held by another gang's reservation or not. */
    static Set<String> victimNodes(boolean reserved) {
        ClusterHarness h = racks();
        h.submit("g", gang(2, 4));
        for (int i = 0; i < 10; i++) {
            h.advance(SECOND).update();   // g starves; its planning is asked once below
        }
        GangReservation other = new GangReservation("other", "physical", "rack r2",
                Map.of("n3", node(4, 16), "n4", node(4, 16)), h.now(), null);
        GangScheduling.Held held = new GangScheduling.Held() {
            @Override
            public boolean planned(String operationId) {
                return false;
            }

            @Override
            public Resources held(String nodeId) {
                return Resources.ZERO;
            }

            @Override
            public boolean portTaken(String nodeId, int port) {
                return false;
            }

            @Override
            public int nextPort(String nodeId) {
                return GangScheduling.FIRST_MASTER_PORT;
            }

            @Override
            public boolean mayPreempt(String operationId, Instant now) {
                return true;
            }

            @Override
            public GangReservation reservation(String nodeId) {
                return reserved && other.needs(nodeId) != null ? other : null;
            }
        };
        List<GangPlan> plans = new ArrayList<>();
        GangScheduling.plan(h.cluster().schedulingIndex("physical"), h.cluster().nodes(), held, h.now(), Duration.ofSeconds(30),
                plans::add);
        assertEquals(1, plans.size(), "g plans by preemption");
        Set<String> out = new TreeSet<>();
        plans.get(0).victims().forEach(victim -> out.add(victim.nodeId()));
        return out;
    }

    @Test
    void aGangsPreemptionLeavesAnotherGangsReservedNodesAlone() {
        assertEquals(Set.of("n3", "n4"), victimNodes(false), "rack r2's jobs lose the least");
        assertEquals(Set.of("n1", "n2"), victimNodes(true), "rack r2 is reserved for another gang: r1 is freed instead");
    }
}
