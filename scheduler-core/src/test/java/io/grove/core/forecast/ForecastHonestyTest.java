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
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Forecasts that say what they know: unknown at once with its reason, a task's declared duration
 * before another operation's jobs, declarations corrected by how far the user's were off, overdue
 * jobs named and widening the band, and the jobs ahead in the assumptions.
 */
class ForecastHonestyTest {

    static final Duration SECOND = Duration.ofSeconds(1);
    static final long BUDGET = Duration.ofSeconds(20).toNanos();

    static OperationSpec declared(int jobs, long millis) {
        return OperationSpec.builder().pool("queue").task(new TaskSpec("main", jobs, "work", job(1, 1), Map.of(), 0, null,
                millis)).build();
    }

    static OperationSpec undeclared(int jobs) {
        return OperationSpec.builder().pool("queue").jobs(jobs, job(1, 1)).build();
    }

    static ClusterHarness queue() {
        return ClusterHarness.withPools(PoolConfig.builder("queue").fifo()).node("n1", node(4, 64));
    }

    static StartForecast.Prediction predict(ClusterHarness h, String id, long[] ticks) {
        return StartForecast.predict(ForecastSnapshot.take(h.cluster(), h.now()), id, 1, BUDGET, () -> ticks[0]++);
    }

    /** Submits {@code id}, its jobs running {@code runs}, and lets {@code seconds} of heartbeats pass. */
    static void ran(ClusterHarness h, String id, OperationSpec spec, Duration runs, int seconds) {
        h.submit(id, spec);
        h.jobsOf(id, runs);
        h.rounds(seconds, SECOND);
    }

    /** Operation b's forecast behind a; {@code likely}: from a's start. */
    record Behind(StartForecast.Prediction prediction, Duration likely) {
    }

    /** Submits a of {@code spec} (its jobs run 90 s), then b behind it, and predicts b. */
    static Behind behind(ClusterHarness h, OperationSpec spec) {
        return behind(h, spec, Duration.ofSeconds(90));
    }

    /** Submits a of {@code spec}, its jobs running {@code runs}, then b behind it, and predicts b. */
    static Behind behind(ClusterHarness h, OperationSpec spec, Duration runs) {
        ran(h, "a", spec, runs, 1);
        Instant startedA = h.cluster().registry().operation("a").runningJobs().get(0).startTime();
        h.submit("b", undeclared(4));
        h.rounds(1, SECOND);
        StartForecast.Prediction b = predict(h, "b", new long[1]);
        return new Behind(b, Duration.between(startedA, b.nextStart().likely()));
    }

    /**
     * Jobs ahead with no known duration: the forecast says so as soon as nothing can change, not
     * after stepping through the day (the ticker counts the draws' steps).
     */
    @Test
    void jobsAheadWithoutAKnownDurationMakeItUnknownAtOnce() {
        ClusterHarness h = queue();
        h.submit("a", undeclared(4));
        h.rounds(1, SECOND);
        h.submit("b", declared(4, 30_000));
        h.rounds(1, SECOND);
        long[] ticks = {0};
        StartForecast.Prediction b = predict(h, "b", ticks);
        assertNull(b.nextStart(), b.toString());
        assertTrue(b.unknown().startsWith("the jobs ahead of it have no known duration: a's task main"), b.unknown());
        assertTrue(ticks[0] < 10 * StartForecast.DRAWS, "stopped once nothing could change: " + ticks[0] + " steps");
    }

    /** A task's own declared duration comes before another operation's finished jobs. */
    @Test
    void aDeclaredDurationComesBeforeTheUsersOtherJobs() {
        ClusterHarness h = queue();
        ran(h, "past", undeclared(4), Duration.ofSeconds(10), 12);
        Behind b = behind(h, declared(4, 90_000));
        Duration likely = b.likely();
        assertTrue(likely.toSeconds() >= 90 && likely.toSeconds() <= 91, "a's own 90 s, not past's 10 s: " + likely);
        assertTrue(b.prediction().assumptions().stream().anyMatch(s -> s.startsWith("ahead, a of ") && s.contains("task main (4 running): "
                + "about 90 s a job (from its spec's expected_duration)")), b.prediction().assumptions().toString());
    }

    /** Declarations are corrected by how far the user's past ones in the pool were off. */
    @Test
    void aDeclarationIsCorrectedByHowFarTheUsersPastOnesWereOff() {
        ClusterHarness h = queue();
        ran(h, "past", declared(4, 60_000), Duration.ofSeconds(90), 92);
        assertEquals(0, h.running("past"));
        Behind b = behind(h, declared(4, 60_000));
        Duration likely = b.likely();
        assertTrue(likely.toSeconds() >= 89 && likely.toSeconds() <= 92, "a declares 60 s, but alice's ran 1.5 times "
                + "theirs: " + likely);
        assertTrue(b.prediction().assumptions().stream().anyMatch(s -> s.contains("expected_duration of 60 s, times how")),
                b.prediction().assumptions().toString());
        h.rounds(95, SECOND);
        assertEquals(4, h.running("b"));
    }

    /** b behind a's four jobs, declared 20 s and running {@code runs}, predicted 100 s later (they are overdue). */
    static StartForecast.Prediction behindOverdue(ClusterHarness h, Duration runs) {
        ran(h, "a", declared(4, 20_000), runs, 1);
        h.submit("b", undeclared(4));
        h.rounds(100, SECOND);
        return predict(h, "b", new long[1]);
    }

    /** A job past every duration seen is named, and the band widens instead of saying "in a second". */
    @Test
    void anOverdueJobIsNamedAndWidensTheBand() {
        ClusterHarness h = queue();
        StartForecast.Prediction b = behindOverdue(h, Duration.ofSeconds(200));
        assertEquals(4, h.running("a"), "a's jobs run on, 80 s past their declared 20 s");
        assertNull(b.unknown(), b.toString());
        assertTrue(b.assumptions().stream().anyMatch(s -> s.startsWith("overdue: job ") && s.contains(" of a has run")),
                b.assumptions().toString());
        Duration width = Duration.between(b.nextStart().earliest(), b.nextStart().latest());
        assertTrue(width.toSeconds() >= 10, "a wide band, not a second: " + b.nextStart());
        assertTrue(b.nextStart().likely().isAfter(h.now().plusSeconds(5)), "not in a second: " + b.nextStart());
    }

    /**
     * The jobs of one task that all ran past what was expected are late for one cause: in a draw
     * they are taken to end together (drawn apart, the last of four would always be taken to end
     * late, and whatever waits for all of them — a gang's whole rack — would be predicted late).
     * Behind four overdue jobs started together, the next and the last of four jobs start together.
     */
    @Test
    void overdueJobsOfOneTaskAreTakenToEndTogether() {
        StartForecast.Prediction b = behindOverdue(queue(), Duration.ofSeconds(400));
        assertTrue(b.assumptions().stream().anyMatch(s -> s.startsWith("overdue: job ")), b.assumptions().toString());
        assertEquals(b.nextStart().earliest(), b.lastStart().earliest(), b.toString());
        assertEquals(b.nextStart().likely(), b.lastStart().likely(), b.toString());
        assertTrue(Duration.between(b.nextStart().earliest(), b.nextStart().latest()).toSeconds() >= 10,
                "the draws still differ: " + b.nextStart());
    }

    /**
     * A node reports a job's end at once: the next job starts at that end, not at the copy's next
     * whole second (the jobs ahead run 30.4 s).
     */
    @Test
    void theNextJobStartsWhenTheJobAheadEndsNotAtTheNextSecond() {
        Behind b = behind(queue(), declared(4, 30_400), Duration.ofMillis(30_400));
        assertEquals(Duration.ofMillis(30_400), b.likely(), b.prediction().toString());
    }

    /** Submissions that began two minutes ago go on at their rate, not at the rate of two minutes' worth in an hour. */
    @Test
    void theRateOfArrivalsIsMeasuredFromTheFirstSubmissionSeen() {
        Instant now = Instant.parse("2026-11-28T12:00:00Z");
        List<Arrivals.Seen> seen = new ArrayList<>();
        for (int i = 0; i <= 12; i++) {
            seen.add(new Arrivals.Seen(now.minusSeconds(120 - 10 * i), undeclared(1), "alice", "queue"));
        }
        Arrivals.Stream stream = new Arrivals(seen, now).start(now, new SplittableRandom(5));
        int within = 0;
        while (stream.next().isBefore(now.plusSeconds(600))) {
            stream.take();
            within++;
        }
        assertTrue(within > 40 && within < 80, "one every 10 s or so, not 13 an hour: " + within + " in 10 min");
    }
}
