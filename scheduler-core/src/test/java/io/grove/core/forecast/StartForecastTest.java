package io.grove.core.forecast;

import static io.grove.core.cluster.ClusterHarness.job;
import static io.grove.core.cluster.ClusterHarness.node;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.core.cluster.ClusterHarness;
import io.grove.core.operation.OperationSpec;
import io.grove.core.operation.TaskSpec;
import io.grove.core.pool.PoolConfig;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.pool.StarvationSettings;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.DoubleSupplier;
import org.junit.jupiter.api.Test;

/**
 * Hand-worked forecasts: one node of 4 cpu, a FIFO pool, jobs of a known length (60 s, from the
 * jobs that ran before), a queue of three operations behind a running one: the predicted starts
 * are exact.
 */
class StartForecastTest {

    static final Duration SECOND = Duration.ofSeconds(1);
    static final long BUDGET = Duration.ofSeconds(20).toNanos();

    static OperationSpec ops(int jobs) {
        return OperationSpec.builder().pool("queue").jobs(jobs, job(1, 1)).build();
    }

    /** A harness whose history says alice's jobs in the queue pool run 60 s, with {@code running} started now. */
    static ClusterHarness withHistory() {
        ClusterHarness h = ClusterHarness.withPools(PoolConfig.builder("queue").fifo()).node("n1", node(4, 64));
        h.submit("past", ops(4));
        h.jobsOf("past", Duration.ofSeconds(60));
        h.rounds(62, SECOND);
        assertEquals(0, h.running("past"));
        return h;
    }

    @Test
    void aDrainedNodeTakesNothingInTheForecastsCopy() {
        ClusterHarness h = withHistory();
        h.node("n2", node(4, 64));
        h.cluster().drains().drain(new io.grove.core.node.NodeDrain("n2", "maintenance", false, "root", h.now()));
        h.submit("a", ops(4));
        h.jobsOf("a", Duration.ofSeconds(60));
        h.rounds(1, SECOND);
        assertEquals(4, h.running("a"));
        Instant startedA = h.cluster().registry().operation("a").runningJobs().get(0).startTime();
        h.submit("b", ops(4));
        h.rounds(1, SECOND);
        assertEquals(0, h.running("b"), "the drained node starts nothing");
        StartForecast.Prediction b = StartForecast.predict(ForecastSnapshot.take(h.cluster(), h.now()), "b", 1, BUDGET,
                System::nanoTime);
        assertEquals(startedA.plusSeconds(60), b.nextStart().likely(), "b waits for a's jobs, not for the drained node");
    }

    @Test
    void aQueueOfThreeBehindARunningOperationStartsOneMinuteApartExactly() {
        ClusterHarness h = withHistory();
        h.submit("a", ops(4));
        h.jobsOf("a", Duration.ofSeconds(60));
        h.rounds(1, SECOND);
        assertEquals(4, h.running("a"));
        Instant startedA = h.cluster().registry().operation("a").runningJobs().get(0).startTime();
        h.submit("b", ops(4));
        h.submit("c", ops(4));
        h.submit("d", ops(4));
        h.rounds(1, SECOND);

        ForecastSnapshot snapshot = ForecastSnapshot.take(h.cluster(), h.now());
        StartForecast.Prediction b = StartForecast.predict(snapshot, "b", 1, BUDGET, System::nanoTime);
        StartForecast.Prediction d = StartForecast.predict(snapshot, "d", 1, BUDGET, System::nanoTime);
        assertNull(d.unknown(), d.toString());
        assertEquals(startedA.plusSeconds(60), b.nextStart().likely(), "b: when a's jobs end");
        assertEquals(startedA.plusSeconds(180), d.nextStart().likely(), "d: behind a, b and c, a minute each");
        assertEquals(startedA.plusSeconds(180), d.lastStart().likely(), "all four of its jobs fit at once");
        assertEquals(d.nextStart().earliest(), d.nextStart().likely(), "every job runs 60 s: no spread");
        assertEquals(d.nextStart().earliest().plus(SECOND), d.nextStart().latest(), "but a start comes at a heartbeat: "
                + "the band is one heartbeat wide");
        assertTrue(d.assumptions().stream().anyMatch(a -> a.contains("about 60 s a job (from 4 recent job(s) of alice in queue)")),
                d.assumptions().toString());
        assertTrue(d.assumptions().stream().anyMatch(a -> a.startsWith("3 unfinished operation(s) submitted before it")),
                d.assumptions().toString());
    }

    @Test
    void aGangIsPredictedToStartEveryRankAtOnceWhenRoomForAllOfThemFrees() {
        ClusterHarness h = withHistory();
        h.submit("a", ops(3));
        h.jobsOf("a", Duration.ofSeconds(60));
        h.rounds(1, SECOND);
        Instant startedA = h.cluster().registry().operation("a").runningJobs().get(0).startTime();
        h.submit("g", OperationSpec.builder().pool("queue").jobs(4, job(1, 1)).gang().build());
        h.rounds(1, SECOND);
        assertEquals(0, h.running("g"), "one cpu is free; the gang needs four at once");

        StartForecast.Prediction g = StartForecast.predict(ForecastSnapshot.take(h.cluster(), h.now()), "g", 1, BUDGET,
                System::nanoTime);
        assertNull(g.unknown(), g.toString());
        assertEquals(startedA.plusSeconds(60), g.nextStart().likely(), "not when one cpu is free: when four are");
        assertEquals(g.nextStart().likely(), g.lastStart().likely(), "every rank at once");
    }

    @Test
    void aStarvingOperationIsForecastToGetItsJobsAsPreemptionTakesRoomNotWhenJobsEnd() {
        StarvationSettings quick = new StarvationSettings(Duration.ofSeconds(5), Duration.ofSeconds(120), 0.8, false, true,
                1.0);
        PoolTreeConfig tree = new PoolTreeConfig("physical", null, null, null, null, false, null, quick, null, null,
                List.of(PoolConfig.builder("a").build(), PoolConfig.builder("b").build()));
        ClusterHarness h = ClusterHarness.of(tree).node("n1", node(4, 64));
        h.submit("fill", OperationSpec.builder().pool("a").task(new TaskSpec("main", 4, "work", job(1, 1), Map.of(), 0,
                null, 300_000L)).build());
        h.jobsOf("fill", Duration.ofSeconds(300));
        h.rounds(1, SECOND);
        assertEquals(4, h.running("fill"));
        Instant submitted = h.now();
        h.submit("want", OperationSpec.builder().pool("b").jobs(2, job(1, 1)).build());
        h.rounds(1, SECOND);

        StartForecast.Prediction want = StartForecast.predict(ForecastSnapshot.take(h.cluster(), h.now()), "want", 1,
                BUDGET, System::nanoTime);
        assertNull(want.unknown(), want.toString());
        Instant last = want.lastStart().likely();
        assertTrue(last.isBefore(submitted.plusSeconds(20)), "its second job after one more pass (5-s backoff), not when "
                + "fill's jobs end five minutes later: " + Duration.between(submitted, last));

        h.rounds(30, SECOND);
        Instant actual = h.cluster().registry().operation("want").runningJobs().stream().map(j -> j.startTime())
                .max(Instant::compareTo).orElseThrow();
        assertEquals(2, h.running("want"));
        assertTrue(Duration.between(last, actual).abs().compareTo(Duration.ofSeconds(2)) <= 0,
                "the forecast " + last + " and the start " + actual);
    }

    /**
     * a, four jobs of 10 min held to a 20-s limit, started; b behind it in the FIFO pool; then
     * {@code seconds} pass. Returns a's start.
     */
    static Instant limitedAheadOfB(ClusterHarness h, int seconds) {
        OperationSpec limited = OperationSpec.builder().pool("queue").task(new TaskSpec("main", 4,
                "work", job(1, 1), Map.of(), 0, null, null, 20_000L)).build();
        return aheadOfB(h, limited, Duration.ofSeconds(600), ops(4), seconds);
    }

    /** a (whose jobs run {@code runs}, or as the harness has it), started; b behind it; then {@code seconds}. a's start. */
    static Instant aheadOfB(ClusterHarness h, OperationSpec a, Duration runs, OperationSpec b, int seconds) {
        h.submit("a", a);
        if (runs != null) {
            h.jobsOf("a", runs);
        }
        h.rounds(1, SECOND);
        Instant startedA = h.cluster().registry().operation("a").runningJobs().get(0).startTime();
        h.submit("b", b);
        h.rounds(seconds, SECOND);
        return startedA;
    }

    static StartForecast.Prediction predict(ClusterHarness h, String operation) {
        return StartForecast.predict(ForecastSnapshot.take(h.cluster(), h.now()), operation, 1, BUDGET, System::nanoTime);
    }

    @Test
    void aRunningJobsTimeLimitBoundsItsEndInTheForecast() {
        ClusterHarness h = withHistory();
        Instant startedA = limitedAheadOfB(h, 1);
        StartForecast.Prediction b = predict(h, "b");
        assertNull(b.unknown(), b.toString());
        // a's four jobs run to their 20-s limit, are stopped with a part of their grace, fail and run
        // again (its pool is FIFO) until a has failed more than max_failed_job_count (10): at least
        // three rounds of 20 s
        assertTrue(!b.nextStart().earliest().isBefore(startedA.plusSeconds(60)), b.toString());
        // and each round at most 20 s and the 60-s grace: three of them, and a fourth for the last
        assertTrue(!b.nextStart().latest().isAfter(startedA.plusSeconds(4 * 80)), b.toString());
    }

    /**
     * Jobs told to stop were seen to take all of their grace (this harness's nodes run a stopped job
     * until it is killed): the forecast takes as much, not anything within it. a's jobs reach their
     * 20-s limit, run their 60-s grace, fail and run again until a fails (after its third round);
     * its first round says how long its jobs run (80 s and stopped, not the minute the user's jobs
     * in the pool took): b starts 240 s after a, in every draw.
     */
    @Test
    void theForecastTakesAsMuchOfTheGraceAsStoppedJobsWereSeenToTake() {
        ClusterHarness h = withHistory();
        Instant startedA = limitedAheadOfB(h, 85);
        StartForecast.Prediction b = predict(h, "b");
        assertTrue(b.assumptions().contains("a job told to stop gracefully takes about 100% of its grace (the median of "
                + "the 4 graceful stop(s) seen)"), b.assumptions().toString());
        h.rounds(200, SECOND);
        Instant startedB = h.cluster().registry().operation("b").runningJobs().get(0).startTime();
        assertEquals(startedA.plusSeconds(240), startedB.truncatedTo(java.time.temporal.ChronoUnit.SECONDS));
        assertTrue(Duration.between(b.nextStart().earliest(), b.nextStart().latest()).compareTo(Duration.ofSeconds(3)) <= 0,
                "no spread but a heartbeat's: " + b.nextStart());
        assertTrue(Duration.between(startedB, b.nextStart().likely()).abs().compareTo(Duration.ofSeconds(2)) <= 0,
                "b started at " + startedB + ", predicted " + b.nextStart());
    }

    /**
     * The user's jobs ran 60, 60, 60 and 90 s; a's has run 75 s: it may end at 90 s as the one seen
     * did, or run on longer than any seen (as likely as that one), so the band is not the one
     * duration seen longer than it ran.
     */
    @Test
    void aJobInTheTailOfWhatWasSeenMayRunLongerThanAnySeen() {
        tailOf(new int[] {60, 60, 60, 90});
    }

    /**
     * The same when the one length seen longer was seen eight times (jobs of one operation that ran
     * exactly alike): one observation, not eight, so a's job runs longer than it in about half the
     * draws, not in one of nine.
     */
    @Test
    void jobsThatRanExactlyAlikeAreOneObservationOfTheTail() {
        ClusterHarness h = tailOf(new int[] {60, 90, 90, 90, 90, 90, 90, 90, 90});
        ForecastSnapshot snapshot = ForecastSnapshot.take(h.cluster(), h.now());
        ForecastSnapshot.OperationState a = snapshot.operation("a");
        Instant started = a.running().get(0).started();
        int beyond = 0;
        for (int draw = 0; draw < 1000; draw++) {
            SplittableRandom random = new SplittableRandom(draw);
            Instant ends = StartForecast.ends(snapshot, a, "main", started, h.now(), new TaskDraws(random), random);
            beyond += ends.isAfter(started.plusSeconds(90)) ? 1 : 0;
        }
        assertTrue(beyond > 400 && beyond < 600, beyond + " of 1000 draws beyond the longest seen");
    }

    private static ClusterHarness tailOf(int[] history) {
        ClusterHarness h = ClusterHarness.withPools(PoolConfig.builder("queue").fifo()).node("n1", node(4, 64));
        OperationSpec whole = OperationSpec.builder().pool("queue").jobs(1, job(4, 1)).build();
        int i = 0;
        for (int seconds : history) {
            h.submit("past-" + i, whole);
            h.jobsOf("past-" + i++, Duration.ofSeconds(seconds));
            h.rounds(seconds + 2, SECOND);
        }
        Instant startedA = aheadOfB(h, whole, Duration.ofSeconds(600), whole, 75);
        StartForecast.Prediction b = predict(h, "b");
        assertEquals(startedA.plusSeconds(90), b.nextStart().earliest(), b.toString());
        assertTrue(b.nextStart().latest().isAfter(startedA.plusSeconds(100)), b.toString());
        return h;
    }

    /**
     * a's length is known only from one other operation of its user in the pool (withHistory: four
     * jobs of 60 s); bob's two operations there ran 30 s and 90 s, 0.5 and 1.5 times their median.
     * One operation says little of the next: a runs 60 s in about half the draws, 30 s or 90 s in the
     * others, and b, behind it, is predicted in that band rather than at 60 s exactly.
     */
    @Test
    void aTaskKnownFromOneOtherOperationMayDifferAsOperationsWereSeenTo() {
        ClusterHarness h = withHistory();
        OperationSpec whole = OperationSpec.builder().pool("queue").jobs(1, job(4, 1)).build();
        for (int seconds : new int[] {30, 90}) {
            h.submit("bob-" + seconds, "bob", whole);
            h.jobsOf("bob-" + seconds, Duration.ofSeconds(seconds));
            h.rounds(seconds + 2, SECOND);
        }
        Instant startedA = aheadOfB(h, whole, Duration.ofSeconds(600), whole, 5);
        ForecastSnapshot snapshot = ForecastSnapshot.take(h.cluster(), h.now());
        Durations.Source source = StartForecast.source(snapshot, snapshot.operation("a"), "main");
        assertEquals(Durations.Kind.USER_IN_POOL, source.kind(), source.says());
        assertEquals(1, source.operations(), source.says());
        Map<Long, Integer> lengths = new java.util.TreeMap<>();
        for (int draw = 0; draw < 1000; draw++) {
            lengths.merge(snapshot.durations().drawTask(source, new SplittableRandom(draw)), 1, Integer::sum);
        }
        assertEquals(java.util.Set.of(30_000L, 60_000L, 90_000L), lengths.keySet(), lengths.toString());
        assertTrue(lengths.get(60_000L) > 400 && lengths.get(60_000L) < 600, lengths.toString());

        StartForecast.Prediction b = predict(h, "b");
        assertTrue(b.assumptions().stream().anyMatch(a -> a.startsWith("operations of one user in one pool were seen to "
                + "run 0.50 to 1.50 times their median (2 operation(s))")), b.assumptions().toString());
        assertTrue(b.nextStart().earliest().isBefore(startedA.plusSeconds(60))
                && b.nextStart().latest().isAfter(startedA.plusSeconds(61)), b.toString());
    }

    @Test
    void submissionsGoingOnAsInTheLastHourMoveOnlyTheLateEdge() {
        // a fair-share pool: a new operation is served alongside the waiting one
        ClusterHarness h = ClusterHarness.withPools(PoolConfig.builder("shared")).node("n1", node(4, 64));
        OperationSpec one = OperationSpec.builder().pool("shared").jobs(1, job(1, 1)).build();
        for (int i = 0; i < 30; i++) {
            h.submit("past-" + i, one);
            h.jobsOf("past-" + i, Duration.ofSeconds(60));
            h.rounds(100, SECOND);
        }
        OperationSpec spec = OperationSpec.builder().pool("shared").jobs(4, job(1, 1)).build();
        h.submit("a", spec);
        h.jobsOf("a", Duration.ofSeconds(60));
        h.rounds(1, SECOND);
        h.submit("b", OperationSpec.builder().pool("shared").jobs(8, job(1, 1)).build());
        h.rounds(1, SECOND);

        StartForecast.Prediction b = StartForecast.predict(ForecastSnapshot.take(h.cluster(), h.now()), "b", 1, BUDGET,
                System::nanoTime);
        assertNull(b.unknown(), b.toString());
        assertTrue(Duration.between(b.lastStart().earliest(), b.lastStart().likely()).compareTo(SECOND) < 0,
                "every job runs 60 s: no spread without submissions but a heartbeat's: " + b.lastStart());
        assertTrue(b.lastStart().latest().isAfter(b.lastStart().likely()),
                "about one submission in two minutes takes a place before its last job: " + b.lastStart());
        // the 30 before, a and b
        assertTrue(b.assumptions().stream().anyMatch(a -> a.endsWith("go on as in the last hour (32)")),
                b.assumptions().toString());
    }

    @Test
    void oneRunForecastsEveryWaitingOperationAtOnce() {
        ClusterHarness h = withHistory();
        h.submit("a", ops(4));
        h.jobsOf("a", Duration.ofSeconds(60));
        h.rounds(1, SECOND);
        Instant startedA = h.cluster().registry().operation("a").runningJobs().get(0).startTime();
        h.submit("b", ops(4));
        h.submit("c", ops(4));
        h.rounds(1, SECOND);
        StartForecast.Outlook outlook = StartForecast.outlook(ForecastSnapshot.take(h.cluster(), h.now()), 1, BUDGET,
                System::nanoTime);
        assertNull(outlook.unknown());
        assertEquals(startedA.plusSeconds(60), outlook.nextStarts().get("b").likely());
        assertEquals(startedA.plusSeconds(120), outlook.nextStarts().get("c").likely());
        assertNull(outlook.nextStarts().get("a"), "nothing of a waits");
    }

    @Test
    void withoutAnyFinishedJobLikeItsTheForecastSaysItCannotTell() {
        ClusterHarness h = ClusterHarness.withPools(PoolConfig.builder("queue").fifo()).node("n1", node(4, 64));
        h.submit("a", ops(4));
        h.rounds(1, SECOND);
        h.submit("b", ops(4));
        h.rounds(1, SECOND);
        StartForecast.Prediction b = StartForecast.predict(ForecastSnapshot.take(h.cluster(), h.now()), "b", 1, BUDGET,
                System::nanoTime);
        assertNull(b.nextStart());
        assertTrue(b.unknown().contains("how long its jobs run is unknown"), b.unknown());
    }

    @Test
    void withoutHistoryTheSpecsExpectedDurationIsTaken() {
        ClusterHarness h = ClusterHarness.withPools(PoolConfig.builder("queue").fifo()).node("n1", node(4, 64));
        OperationSpec expected = OperationSpec.builder().pool("queue").task(new TaskSpec("main", 4,
                "work", job(1, 1), Map.of(), 0, null, 90_000L)).build();
        Instant startedA = aheadOfB(h, expected, null, expected, 1);
        StartForecast.Prediction b = predict(h, "b");
        assertNull(b.unknown(), b.toString());
        Duration likely = Duration.between(startedA, b.nextStart().likely());
        assertTrue(likely.toMillis() >= 90_000 && likely.toMillis() < 91_000, "90 s, seen up to a heartbeat late: " + likely);
        assertTrue(b.nextStart().latest().isAfter(b.nextStart().earliest()), "not zero-width: " + b.nextStart());
        assertTrue(b.assumptions().get(0).contains("about 90 s a job (from its spec's expected_duration)"),
                b.assumptions().toString());
    }

    @Test
    void aForecastThatRunsOutOfTimeSaysSo() {
        ClusterHarness h = withHistory();
        h.submit("a", ops(4));
        h.rounds(1, SECOND);
        h.submit("b", ops(4));
        long[] ticks = {0};
        StartForecast.Prediction b = StartForecast.predict(ForecastSnapshot.take(h.cluster(), h.now()), "b", 1, 5,
                () -> ticks[0] += 10);
        assertTrue(b.unknown().contains("took longer than"), b.toString());
    }

    /**
     * The band's edges come from both kinds of draws: without submissions, and with submissions
     * going on as in the last hour. Submissions mostly delay a start (the late edge), but they can
     * hasten one (a starving submission preempts a rank of a running gang, whose rack goes to the
     * gang waited for): then the early edge is theirs.
     */
    @Test
    void theBandsEdgesAreTheWiderOfTheDrawsWithAndWithoutSubmissions() {
        Instant t = Instant.parse("2026-01-01T00:00:00Z");
        List<Instant> quiet = List.of(100, 101, 102, 103, 104, 105, 106).stream().map(t::plusSeconds).toList();
        List<Instant> hastened = List.of(40, 101, 102, 150, 160, 170, 180).stream().map(t::plusSeconds).toList();
        StartForecast.Band band = StartForecast.band(quiet, hastened, Duration.ofSeconds(1));
        assertEquals(t.plusSeconds(40), band.earliest(), "a submission may hasten it: " + band);
        assertEquals(t.plusSeconds(103), band.likely(), "the likely start assumes no submissions");
        assertEquals(t.plusSeconds(180), band.latest());
        StartForecast.Band delayed = StartForecast.band(quiet, List.of(120, 130, 140, 150, 160, 170, 180).stream()
                .map(t::plusSeconds).toList(), Duration.ofSeconds(1));
        assertEquals(t.plusSeconds(100), delayed.earliest(), "submissions that only delay leave the early edge: " + delayed);
        assertEquals(t.plusSeconds(180), delayed.latest());
    }

    /**
     * The band is the 80% interval it says it is: of {@link StartForecast#DRAWS} draws and one more
     * from the same law, the further one falls inside the band 8 times in 10, whatever the law
     * (seeded: one of long tails, one even). With seven draws, lowest to highest, it held 6 in 8.
     */
    @Test
    void theBandHoldsEightInTenOfFurtherDraws() {
        Instant t = Instant.parse("2026-01-01T00:00:00Z");
        SplittableRandom random = new SplittableRandom(11);
        List<DoubleSupplier> laws = List.of(
                () -> -600_000 * Math.log(1 - random.nextDouble()), () -> 60_000 + 540_000 * random.nextDouble());
        for (DoubleSupplier law : laws) {
            int trials = 20_000;
            int inside = 0;
            for (int trial = 0; trial < trials; trial++) {
                List<Instant> draws = new ArrayList<>();
                for (int d = 0; d < StartForecast.DRAWS; d++) {
                    draws.add(t.plusMillis(Math.round(law.getAsDouble())));
                }
                Instant further = t.plusMillis(Math.round(law.getAsDouble()));
                StartForecast.Band band = StartForecast.band(draws, List.of(), Duration.ofMillis(1));
                if (!further.isBefore(band.earliest()) && !further.isAfter(band.latest())) {
                    inside++;
                }
            }
            double held = (double) inside / trials;
            assertTrue(held >= 0.79 && held <= 0.81, "the band held " + held + " of further draws");
        }
        assertEquals(1, StartForecast.edge(19), "of 19 draws, the second lowest to the second highest");
        assertEquals(0, StartForecast.edge(7), "fewer than nine draws: the extremes");
    }
}
