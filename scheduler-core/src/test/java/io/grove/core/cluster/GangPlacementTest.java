package io.grove.core.cluster;

import static io.grove.core.cluster.ClusterHarness.job;
import static io.grove.core.cluster.ClusterHarness.node;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.core.forecast.ForecastSnapshot;
import io.grove.core.forecast.StartForecast;
import io.grove.core.operation.Job;
import io.grove.core.operation.JobEndReason;
import io.grove.core.operation.Operation;
import io.grove.core.operation.OperationSpec;
import io.grove.core.operation.SubmitException;
import io.grove.core.pool.PoolConfig;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.pool.PreemptionSettings;
import io.grove.core.schedule.Decision;
import io.grove.core.schedule.GangPlan;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Gangs start whole or not at all, inside their domain, know their peers, and restart as one. */
class GangPlacementTest {

    private static final Duration STEP = Duration.ofSeconds(1);

    private static PoolTreeConfig tree(String... levels) {
        return PoolTreeConfig.withPools("physical", List.of(PoolConfig.builder("a").build(), PoolConfig.builder("b").build()))
                .withTopologyLevels(List.of(levels));
    }

    private static OperationSpec gang(int ranks, double cpu) {
        return OperationSpec.builder().pool("a").jobs(ranks, job(cpu, 1)).gang().build();
    }

    /** Every start decided so far, by job id. */
    private static Map<String, Decision.JobStart> starts(ClusterHarness h) {
        Map<String, Decision.JobStart> out = new TreeMap<>();
        for (Decision decision : h.decisions()) {
            for (Decision.JobStart start : decision.starts()) {
                out.put(start.jobId(), start);
            }
        }
        return out;
    }

    @Test
    void aGangThatDoesNotFitStartsNothingAndSmallerJobsGoOnThenItStartsWholeWhenRoomAppears() {
        ClusterHarness h = ClusterHarness.of(tree()).node("n1", node(2, 16)).node("n2", node(2, 16));
        h.submit("busy", OperationSpec.builder().pool("b").jobs(2, job(1, 1)).build());
        h.jobsOf("busy", Duration.ofSeconds(5));
        h.rounds(1, STEP);
        h.submit("g", gang(3, 1));
        h.submit("small", OperationSpec.builder().pool("b").jobs(1, job(1, 1)).build());
        h.rounds(2, STEP);
        assertEquals(0, h.running("g"), "3 ranks of 1 cpu do not fit in the 2 cpus free: none starts");
        assertEquals(1, h.running("small"), "a smaller job of another operation is not held back");
        assertTrue(h.cluster().gang("physical", "g").waiting().why().startsWith("needs 3 ranks (1 cpu, 1Gi memory each) at once; the tree's nodes have 1 cpu, 29Gi memory free in all"),
                h.cluster().gang("physical", "g").waiting().why());

        h.rounds(4, STEP);
        assertEquals(3, h.running("g"), "room appeared: every rank started");
        GangPlan plan = h.cluster().gang("physical", "g").plan();
        assertTrue(plan.complete());
        assertNull(h.cluster().gang("physical", "g").waiting());
    }

    @Test
    void everyPlannedNodeGetsItsRanksInOneTurnWithVariablesThatLetThemFindEachOther() {
        ClusterHarness h = ClusterHarness.of(tree()).node("n1", node(2, 16)).node("n2", node(2, 16));
        h.rounds(1, STEP);
        h.cluster().takeNudges();
        h.submit("g", gang(4, 1));
        h.update();
        assertEquals(List.of("n1", "n2"), h.cluster().takeNudges(), "both planned nodes are asked to come now");
        assertEquals(2, h.heartbeat("n2").starts().size());
        assertFalse(h.cluster().gang("physical", "g").plan().complete());
        assertEquals(2, h.heartbeat("n1").starts().size());
        assertTrue(h.cluster().gang("physical", "g").plan().complete());

        Map<Integer, Map<String, String>> byRank = new TreeMap<>();
        for (Decision.JobStart start : starts(h).values()) {
            byRank.put(Integer.parseInt(start.env().get("RANK")), start.env());
        }
        assertEquals(Set.of(0, 1, 2, 3), byRank.keySet());
        GangPlan plan = h.cluster().gang("physical", "g").plan();
        String master = plan.ranks().get(0).nodeId();
        for (int rank = 0; rank < 4; rank++) {
            Map<String, String> env = byRank.get(rank);
            assertEquals("4", env.get("WORLD_SIZE"));
            assertEquals("4", env.get("GROVE_GANG_SIZE"));
            assertEquals(Integer.toString(rank), env.get("GROVE_GANG_RANK"));
            assertEquals(master, env.get("MASTER_ADDR"), "a node with no address is named by its id");
            assertEquals("29500", env.get("MASTER_PORT"));
            assertEquals(4, env.get("GROVE_GANG_HOSTS").split(",").length);
            String own = plan.ranks().get(rank).nodeId();
            assertEquals(own, env.get("GROVE_GANG_HOSTS").split(",")[rank]);
            assertEquals(own.equals(master) ? "0" : "1", env.get("NODE_RANK"));
            assertEquals("2", env.get("LOCAL_WORLD_SIZE"));
        }
        Set<String> local = new HashSet<>();
        for (Map<String, String> env : byRank.values()) {
            local.add(env.get("NODE_RANK") + "/" + env.get("LOCAL_RANK"));
        }
        assertEquals(Set.of("0/0", "0/1", "1/0", "1/1"), local);
    }

    @Test
    void aRequiredRackIsNeverStraddledAndAPreferredOneIsWhenNoRackFits() {
        ClusterHarness h = ClusterHarness.of(tree("rack"))
                .nodeAt("n1", node(2, 16), "rack=r1").nodeAt("n2", node(2, 16), "rack=r1")
                .nodeAt("n3", node(2, 16), "rack=r2").nodeAt("n4", node(2, 16), "rack=r2");
        h.submit("busy", OperationSpec.builder().pool("b").jobs(2, job(1.5, 1)).build());
        h.update();
        h.heartbeat("n1");
        h.heartbeat("n3");
        assertEquals(2, h.running("busy"), "one on n1 (rack r1), one on n3 (rack r2)");
        h.submit("g", OperationSpec.builder().pool("a").jobs(4, job(1, 1)).topology("rack", true).build());
        h.rounds(3, STEP);
        assertEquals(0, h.running("g"), "5 cpus are free, but no rack has room for 4 ranks");
        String why = h.cluster().gang("physical", "g").waiting().why();
        assertTrue(why.startsWith("needs 4 ranks (1 cpu, 1Gi memory each) in one rack; rack r1 has room for 2, rack r2 has room for 2"), why);

        h.submit("p", OperationSpec.builder().pool("a").jobs(4, job(1, 1)).topology("rack", false).build());
        h.rounds(2, STEP);
        assertEquals(4, h.running("p"), "a preferred rack gives way when none fits");
        assertNull(h.cluster().gang("physical", "p").plan().domain());
    }

    @Test
    void aGangThatCanNeverStartIsRefusedAtSubmitWithWhy() {
        ClusterHarness h = ClusterHarness.of(tree("rack"))
                .nodeAt("n1", node(2, 16), "rack=r1").nodeAt("n2", node(2, 16), "rack=r2");
        SubmitException tooBig = assertThrows(SubmitException.class, () -> h.submit("g",
                OperationSpec.builder().pool("a").jobs(3, job(1, 1)).topology("rack", true).build()));
        assertTrue(tooBig.getMessage().contains("even with every node empty: it needs 3 ranks (1 cpu, 1Gi memory each) in one rack; rack r1 has room for 2"),
                tooBig.getMessage());
        SubmitException level = assertThrows(SubmitException.class, () -> h.submit("g",
                OperationSpec.builder().pool("a").jobs(1, job(1, 1)).topology("block", true).build()));
        assertTrue(level.getMessage().contains("knows no level 'block'"), level.getMessage());
        assertThrows(SubmitException.class, () -> h.submit("g", gang(5, 1)), "more than the whole tree");
        assertNull(h.cluster().registry().operation("g"), "nothing of a refused gang is left");
        assertNotNull(h.submit("g", gang(4, 1)));
    }

    @Test
    void theForecastOfARestartingGangCountsTheGraceItsRanksHaveLeft() {
        ClusterHarness h = ClusterHarness.of(tree()).node("n1", node(1, 16)).node("n2", node(1, 16));
        h.submit("g", gang(2, 1));
        h.rounds(2, STEP);
        Job failing = h.cluster().registry().operation("g").runningJobs().get(0);
        String other = failing.nodeId().equals("n1") ? "n2" : "n1";
        h.machine(failing.nodeId()).fail(failing.id());
        h.heartbeat(failing.nodeId());
        h.heartbeat(other);
        Instant stops = h.now().plus(Duration.ofSeconds(60));
        Job stopping = h.cluster().registry().operation("g").runningJobs().get(0);
        assertEquals(stops, stopping.stopsBy(), "the other rank is stopped with the tree's graceful grace");
        h.rounds(20, STEP);
        StartForecast.Prediction restart = StartForecast.predict(ForecastSnapshot.take(h.cluster(), h.now()), "g", 1,
                5_000_000_000L, System::nanoTime);
        assertNotNull(restart.nextStart(), restart.toString());
        assertTrue(!restart.nextStart().latest().isAfter(stops.plus(Duration.ofSeconds(3))),
                "the gang starts again once the stopping rank's grace ran out, not a whole grace after the forecast: "
                        + restart);
    }

    @Test
    void aRankThatFailsStopsEveryRankAndTheGangStartsAgainWholeCountedOnce() {
        ClusterHarness h = ClusterHarness.of(tree()).node("n1", node(1, 16)).node("n2", node(1, 16));
        h.submit("g", gang(2, 1));
        h.rounds(2, STEP);
        assertEquals(2, h.running("g"));
        Operation gang = h.cluster().registry().operation("g");
        Job failing = gang.runningJobs().get(0);
        String other = failing.nodeId().equals("n1") ? "n2" : "n1";
        h.cluster().takeNudges();
        h.machine(failing.nodeId()).fail(failing.id());
        h.heartbeat(failing.nodeId());
        assertEquals(List.of(other), h.cluster().takeNudges(), "the other rank's node is asked to come now");
        Decision stop = h.heartbeat(other);
        assertEquals(1, stop.preemptions().size());
        assertEquals(Decision.PreemptionReason.GANG_RESTART, stop.preemptions().get(0).reason());
        assertTrue(stop.preemptions().get(0).message().contains("failed with exit code 1 (failed); the gang stops and "
                + "starts again as a whole"), stop.preemptions().get(0).message());
        assertFalse(stop.preemptions().get(0).message().contains("simulated failure"),
                "the failure's own message (its stderr) stays with its job");
        assertTrue(stop.starts().isEmpty(), "no rank starts again while one still runs");

        h.advance(Duration.ofSeconds(60));
        h.rounds(3, STEP);
        assertEquals(2, h.running("g"), "both ranks run again");
        assertEquals(1, gang.failedJobCount(), "the restart counts once against max_failed_job_count");
        List<JobEndReason> reasons = new ArrayList<>();
        for (Job ended : gang.finishedJobs()) {
            reasons.add(ended.endReason());
        }
        assertEquals(List.of(JobEndReason.FAILED, JobEndReason.GANG_RESTART), reasons);
    }

    @Test
    void aPlanWhoseNodeDoesNotAnswerIsDroppedWholeAndNoRankRunsAlone() {
        ClusterHarness h = ClusterHarness.of(tree()).node("n1", node(1, 16)).node("n2", node(1, 16));
        h.rounds(1, STEP);
        h.submit("g", gang(2, 1));
        h.update();
        h.machine("n2").lose();
        h.heartbeat("n1");
        assertEquals(1, h.running("g"), "rank on n1 started; n2 does not come");
        h.advance(ClusterSettings.DEFAULT_GANG_START_TIMEOUT);
        h.heartbeat("n1");
        h.cluster().checkNodes(h.now());
        assertEquals(null, h.cluster().gang("physical", "g").plan(), "the plan is dropped whole");
        Decision stop = h.heartbeat("n1");
        assertEquals(Decision.PreemptionReason.GANG_RESTART, stop.preemptions().get(0).reason(),
                "its node is told to stop the started rank");
        assertTrue(stop.preemptions().get(0).message().contains("did not start rank"), stop.preemptions().get(0).message());
        assertEquals(1, h.running("g"), "it counts as running until its node says it stopped: never beside a new attempt");
        h.advance(PreemptionSettings.DEFAULT.allocationGracefulPreemptionTimeout().plusSeconds(1));
        h.heartbeat("n1");
        Job aborted = h.cluster().registry().operation("g").finishedJobs().get(0);
        assertEquals(JobEndReason.GANG_RESTART, aborted.endReason());
        assertEquals(0, h.cluster().registry().operation("g").failedJobCount());
    }

    @Test
    void aGangInTwoTreesRunsInTheFirstThatPlansItAndNeverInBoth() {
        PoolTreeConfig a = new PoolTreeConfig("a", "!b", null, null, null, false, null, null, null, null,
                List.of(PoolConfig.builder("p").build()));
        PoolTreeConfig b = new PoolTreeConfig("b", "b", null, null, null, false, null, null, null, null,
                List.of(PoolConfig.builder("p").build()));
        ClusterHarness h = ClusterHarness.of(a, b).node("na", node(2, 16)).node("nb", node(2, 16), "b");
        h.submit("g", OperationSpec.builder().pool("p").tree("a").tree("b").jobs(2, job(1, 1)).gang().build());
        h.rounds(3, STEP);
        Operation gang = h.cluster().registry().operation("g");
        assertEquals(2, gang.runningJobCount());
        assertEquals(1, gang.runningJobs().stream().map(Job::tree).distinct().count(), "one tree's plan only");
        assertEquals(1, (h.cluster().gang("a", "g").plan() == null ? 0 : 1) + (h.cluster().gang("b", "g").plan() == null
                ? 0 : 1));
    }
}
