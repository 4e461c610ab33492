package io.grove.core.forecast;

import io.grove.core.cluster.Cluster;
import io.grove.core.operation.TaskSpec;
import io.grove.core.schedule.GangReservation;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.LongSupplier;

/**
 * Predicts when an operation's next job and its last job start: a copy of the live state
 * ({@link ForecastSnapshot}) run forward by the real core — the nodes as they are, running jobs
 * ending after their expected remaining time, pending operations in their queues, fair-share
 * updates, preemption, no new submissions — once per draw of job durations; the draws make a band.
 * Pure: time is virtual, and the only clock is the injected ticker that bounds the work.
 */
public final class StartForecast {

    /**
     * Draws of durations. The band runs from the lowest to the highest of them ({@link #edge}): of
     * nine draws and one more from the same law, the tenth falls between the lowest and the highest
     * of the nine 8 times in 10 (each of the ten is equally likely to be the lowest or the highest),
     * so the band is an 80% interval; of seven it would be 6 in 8.
     */
    public static final int DRAWS = 9;

    /** The part of outcomes a band is to hold: the order statistics of its edges are chosen for it. */
    static final double BAND_COVERAGE = 0.8;

    /** How far ahead a forecast looks. */
    public static final Duration HORIZON = Duration.ofHours(24);

    /** Virtual time between node heartbeats while things happen. */
    static final Duration STEP = Duration.ofSeconds(1);

    /**
     * The longest virtual jump when nothing happens; a jump ends earlier at the next job end or the
     * next starvation (preemption follows it).
     */
    static final Duration MAX_JUMP = Duration.ofMinutes(5);

    /** A band of times: its early edge, the median and its late edge of the draws, an 80% interval ({@link #edge}; {@code null}: not within the horizon). */
    public record Band(Instant earliest, Instant likely, Instant latest) {
    }

    /**
     * A forecast: when the next and the last of its pending jobs start, what it assumed, and why it
     * cannot say ({@code unknown}, then the bands are {@code null}).
     */
    public record Prediction(String operationId, Band nextStart, Band lastStart, List<String> assumptions, String unknown) {
    }

    private StartForecast() {
    }

    /**
     * Predicts the starts of {@code target}'s pending jobs; stops when {@code budgetNanos} of
     * {@code ticker} have passed (then it says so).
     */
    public static Prediction predict(ForecastSnapshot snapshot, String target, long seed, long budgetNanos,
            LongSupplier ticker) {
        return predict(snapshot, target, seed, budgetNanos, ticker, true);
    }

    /** {@link #predict}; without {@code untilLast}, only the next start (the last start's band is then unknown). */
    public static Prediction predict(ForecastSnapshot snapshot, String target, long seed, long budgetNanos,
            LongSupplier ticker, boolean untilLast) {
        ForecastSnapshot.OperationState own = snapshot.operation(target);
        if (own == null) {
            return new Prediction(target, null, null, List.of(), "the operation is not pending or running");
        }
        Draws draws = draws(snapshot, target, seed, budgetNanos, ticker, untilLast);
        return draws == null ? late(snapshot, own, budgetNanos) : prediction(snapshot, own, draws);
    }

    /**
     * Predicts the starts of every pending or running operation's pending jobs from the same draws
     * of the whole cluster: one computation that every {@code explain} of the snapshot shares.
     */
    public static Map<String, Prediction> predictAll(ForecastSnapshot snapshot, long seed, long budgetNanos,
            LongSupplier ticker) {
        Draws draws = draws(snapshot, null, seed, budgetNanos, ticker, true);
        Map<String, Prediction> all = new LinkedHashMap<>();
        for (ForecastSnapshot.OperationState own : snapshot.operations()) {
            all.put(own.id(), draws == null ? late(snapshot, own, budgetNanos) : prediction(snapshot, own, draws));
        }
        return all;
    }

    /** Each draw's runs: without submissions ({@code quiet}) and with them as in the last hour ({@code busy}). */
    private record Draws(List<ForecastDraw.Run> quiet, List<ForecastDraw.Run> busy) {
    }

    /** The draws for {@code target} (or every operation, {@code null}); {@code null} when the budget ran out. */
    private static Draws draws(ForecastSnapshot snapshot, String target, long seed, long budgetNanos, LongSupplier ticker,
            boolean untilLast) {
        long start = ticker.getAsLong();
        boolean arriving = snapshot.arrivals().count() > 0;
        List<ForecastDraw.Run> quiet = new ArrayList<>();
        List<ForecastDraw.Run> busy = new ArrayList<>();
        Set<String> stuck = Set.of();
        for (int draw = 0; draw < 2 * DRAWS; draw++) {
            boolean withArrivals = draw >= DRAWS;
            if (withArrivals && !arriving) {
                break;
            }
            if (draw == DRAWS) {
                stuck = stuck(snapshot, quiet);
            }
            ForecastDraw.Run runs = ForecastDraw.run(snapshot, target, new SplittableRandom(seed * 31 + draw), ticker,
                    start + budgetNanos, untilLast, withArrivals, stuck);
            if (runs == null) {
                return null;
            }
            (withArrivals ? busy : quiet).add(runs);
        }
        return new Draws(quiet, busy);
    }

    private static Prediction late(ForecastSnapshot snapshot, ForecastSnapshot.OperationState own, long budgetNanos) {
        return new Prediction(own.id(), null, null, List.copyOf(ForecastBasis.of(snapshot, own).assumptions()), "the forecast took "
                + "longer than " + budgetNanos / 1_000_000 + " ms to compute (a large cluster): try again later");
    }

    private static Prediction prediction(ForecastSnapshot snapshot, ForecastSnapshot.OperationState own, Draws draws) {
        ForecastBasis basis = ForecastBasis.of(snapshot, own);
        List<List<Instant>> quiet = List.of(new ArrayList<>(), new ArrayList<>());
        List<List<Instant>> busy = List.of(new ArrayList<>(), new ArrayList<>());
        for (ForecastDraw.Run runs : draws.quiet()) {
            Instant[] run = runs.starts().getOrDefault(own.id(), new Instant[2]);
            quiet.get(0).add(run[0]);
            quiet.get(1).add(run[1]);
        }
        for (ForecastDraw.Run runs : draws.busy()) {
            Instant[] run = runs.starts().getOrDefault(own.id(), new Instant[2]);
            busy.get(0).add(run[0]);
            busy.get(1).add(run[1]);
        }
        GangReservation reservation = reservation(snapshot, own.id());
        if (reservation != null && reservation.start() != null) {
            // a reserved gang starts by its reservation's start: the jobs in its way reach their time limits
            for (List<List<Instant>> kind : List.of(quiet, busy)) {
                for (List<Instant> times : kind) {
                    times.replaceAll(t -> t == null || t.isAfter(reservation.start()) ? reservation.start() : t);
                }
            }
            basis.assumptions().add("it holds a reservation on " + reservation.describe() + ": it starts by then at the "
                    + "latest, when the jobs in its way reach their time limits");
        }
        boolean never = quiet.get(0).stream().allMatch(Objects::isNull);
        if (never && !basis.unknown().isEmpty()) {
            return new Prediction(own.id(), null, null, List.copyOf(basis.assumptions()), String.join("; ", basis.unknown()));
        }
        String blocked = never ? ForecastBasis.blocked(draws.quiet(), own.id()) : null;
        if (blocked != null) {
            return new Prediction(own.id(), null, null, List.copyOf(basis.assumptions()), blocked);
        }
        List<String> assumptions = new ArrayList<>(basis.assumptions());
        assumptions.addAll(basis.unknown());
        Duration heartbeat = snapshot.cadence().heartbeat();
        return new Prediction(own.id(), band(quiet.get(0), busy.get(0), heartbeat), band(quiet.get(1), busy.get(1), heartbeat),
                List.copyOf(assumptions), null);
    }

    /** The gang's reservation in the snapshot, or {@code null}. */
    private static GangReservation reservation(ForecastSnapshot snapshot, String operationId) {
        for (ForecastSnapshot.TreeMemory tree : snapshot.trees().values()) {
            for (GangReservation reservation : tree.reservations()) {
                if (reservation.operationId().equals(operationId)) {
                    return reservation;
                }
            }
        }
        return null;
    }

    /**
     * The likely next start of every operation with jobs waiting ({@code null}: not within the
     * horizon), from one run of the whole cluster per draw; {@code unknown} says why there is none.
     */
    public record Outlook(Map<String, Band> nextStarts, String unknown) {
    }

    /** Predicts the next start of every operation with jobs waiting at once (for lists). */
    public static Outlook outlook(ForecastSnapshot snapshot, long seed, long budgetNanos, LongSupplier ticker) {
        long start = ticker.getAsLong();
        Map<String, List<Instant>> nexts = new LinkedHashMap<>();
        for (int draw = 0; draw < DRAWS; draw++) {
            ForecastDraw.Run runs = ForecastDraw.run(snapshot, null, new SplittableRandom(seed * 31 + draw), ticker,
                    start + budgetNanos, false, false);
            if (runs == null) {
                return new Outlook(Map.of(), "the forecast took longer than " + budgetNanos / 1_000_000
                        + " ms to compute (a large cluster)");
            }
            for (ForecastSnapshot.OperationState operation : snapshot.operations()) {
                Instant[] run = runs.starts().get(operation.id());
                nexts.computeIfAbsent(operation.id(), id -> new ArrayList<>()).add(run == null ? null : run[0]);
            }
        }
        Map<String, Band> bands = new LinkedHashMap<>();
        nexts.forEach((id, times) -> {
            if (times.stream().anyMatch(Objects::nonNull)) {
                bands.put(id, band(times, List.of(), snapshot.cadence().heartbeat()));
            }
        });
        return new Outlook(bands, null);
    }

    /**
     * The operations that start in no draw without submissions, each of which stopped because
     * nothing could change any more: submissions going on do not make room for them either (they
     * wait for jobs without an end that can be told), so the draws with submissions do not wait for
     * them through the day.
     */
    private static Set<String> stuck(ForecastSnapshot snapshot, List<ForecastDraw.Run> quiet) {
        if (quiet.isEmpty() || !quiet.stream().allMatch(ForecastDraw.Run::frozen)) {
            return Set.of();
        }
        Set<String> stuck = new LinkedHashSet<>();
        for (ForecastSnapshot.OperationState operation : snapshot.operations()) {
            if (quiet.stream().noneMatch(run -> run.starts().containsKey(operation.id()))) {
                stuck.add(operation.id());
            }
        }
        return stuck;
    }

    /** A fair-share update of every tree of the copy, at {@code t}. */
    static void update(Cluster copy, Instant t) {
        for (String tree : copy.treeNames()) {
            copy.publishFairShare(Cluster.computeFairShare(copy.prepareFairShare(tree, t)));
        }
    }

    /**
     * A job's duration in this draw ({@code null}: unknown). Drawn per job among the task's own
     * finished jobs; otherwise once per task of an operation ({@link TaskDraws}).
     */
    static Long draw(ForecastSnapshot snapshot, ForecastSnapshot.OperationState operation, String task,
            TaskDraws perTask, SplittableRandom random) {
        Durations.Source source = source(snapshot, operation, task);
        if (source == null) {
            return null;
        }
        return source.ownTask() ? Durations.draw(source, random)
                : perTask.duration(operation.id(), task, snapshot.durations(), source);
    }

    static Durations.Source source(ForecastSnapshot snapshot, ForecastSnapshot.OperationState operation, String task) {
        TaskSpec spec = operation.spec().tasks().get(task);
        return spec == null ? null
                : snapshot.durations().of(operation.id(), operation.user(), operation.pool(), task, spec.expectedDuration());
    }

    /** An overdue job runs on for at least this part of what it ran already, at most as long again. */
    static final double OVERDUE_LEAST = 0.05;

    /**
     * When a running job ends in this draw: its start plus its drawn duration when it has run less
     * than every duration seen; else (it outlived some) a duration drawn among those seen longer than
     * it ran, or — 1 in n + 1 for n distinct lengths among them — longer than all: then, as a job that ran longer than
     * any like it (overdue), it runs on past the longest of them for a part of what it ran already,
     * drawn between {@value #OVERDUE_LEAST} and 1: the longer it is overdue, the wider the band. A
     * job in the tail of what was seen (one seen duration longer than it ran) is not taken to end
     * exactly then in every draw.
     * Where in those ranges is drawn once per task of an operation in a draw, like a declared
     * duration: the jobs of a task that all ran past what was expected are late for one cause, and
     * drawn apart the last of them would always be taken to end late (a gang waiting for a whole
     * rack waits for the last).
     */
    static Instant ends(ForecastSnapshot snapshot, ForecastSnapshot.OperationState operation, String task,
            Instant started, Instant now, TaskDraws perTask, SplittableRandom random) {
        Long drawn = draw(snapshot, operation, task, perTask, random);
        if (drawn == null) {
            return null;
        }
        long elapsed = Duration.between(started, now).toMillis();
        Durations.Source source = source(snapshot, operation, task);
        long[] longer = Arrays.stream(source.millis()).filter(millis -> millis > elapsed).sorted().toArray();
        if (longer.length == source.millis().length && drawn > elapsed) {
            return started.plusMillis(drawn);   // it outlived none of those seen (nor its draw): the draw stands
        }
        double late = perTask.fraction(TaskDraws.Range.OVERDUE, operation.id(), task);
        // of n distinct lengths seen longer than it ran, its own is longer than all of them with a chance
        // of 1 in n + 1 (jobs that ran exactly alike, as an operation's often do, are one observation):
        // then it runs on as an overdue one does
        double beyondChance = 1.0 / (Arrays.stream(longer).distinct().count() + 1);
        if (late >= 1 - beyondChance) {
            double beyond = (late - (1 - beyondChance)) / beyondChance;
            long more = (long) (elapsed * (OVERDUE_LEAST + beyond * (1 - OVERDUE_LEAST)));
            long after = longer.length == 0 ? now.toEpochMilli() : started.toEpochMilli() + longer[longer.length - 1];
            return Instant.ofEpochMilli(Math.max(after, now.toEpochMilli()) + Math.max(STEP.toMillis(), more));
        }
        return started.plusMillis(longer[(int) (late / (1 - beyondChance) * longer.length)]);
    }

    /**
     * The band of {@code quiet} draws (no new submissions): its early edge ({@link #edge}), median,
     * late edge; each edge moved to that of the {@code busy} draws (submissions going on) when it is wider:
     * submissions mostly delay a start, but they may hasten one too (a submission that starves
     * preempts a rank of a running gang, and the rack the restarting gang frees goes to the gang
     * waited for). A start comes at a node's heartbeat after room frees, so a band is at least one
     * {@code heartbeat} wide: never zero-width.
     */
    static Band band(List<Instant> quiet, List<Instant> busy, Duration heartbeat) {
        List<Instant> sorted = sorted(quiet);
        int n = sorted.size();
        int k = edge(n);
        Instant latest = sorted.get(n - 1 - k);
        Instant earliest = sorted.get(k);
        if (!busy.isEmpty()) {
            List<Instant> late = sorted(busy);
            int b = edge(late.size());
            Instant busyLatest = late.get(late.size() - 1 - b);
            latest = latest == null || busyLatest == null ? null : busyLatest.isAfter(latest) ? busyLatest : latest;
            Instant busyEarliest = late.get(b);
            earliest = earliest == null || busyEarliest == null || !busyEarliest.isBefore(earliest) ? earliest : busyEarliest;
        }
        if (earliest != null && latest != null && latest.isBefore(earliest.plus(heartbeat))) {
            latest = earliest.plus(heartbeat);
        }
        return new Band(earliest, sorted.get(n / 2), latest);
    }

    /**
     * Which order statistic (from 0) of {@code n} draws is a band's edge, from either end: the
     * {@code j}-th lowest and the {@code j}-th highest (from 1) of {@code n} draws hold a further
     * draw {@code (n + 1 - 2j) / (n + 1)} of the time whatever the law, so the largest {@code j}
     * that keeps it at {@link #BAND_COVERAGE} or more; the extremes when even they hold less
     * (fewer than nine draws). Sample percentiles ({@code n / 10}) would hold less than they say.
     */
    static int edge(int n) {
        int j = (int) Math.floor((1 - BAND_COVERAGE) / 2 * (n + 1) + 1e-9);
        return Math.max(0, j - 1);
    }

    private static List<Instant> sorted(List<Instant> times) {
        List<Instant> sorted = new ArrayList<>(times);
        sorted.sort((a, b) -> a == null ? (b == null ? 0 : 1) : b == null ? -1 : a.compareTo(b));
        return sorted;
    }

    static String human(Duration duration) {
        long seconds = duration.toSeconds();
        return seconds < 120 ? seconds + " s" : seconds < 7200 ? seconds / 60 + " min" : seconds / 3600 + " h";
    }
}
