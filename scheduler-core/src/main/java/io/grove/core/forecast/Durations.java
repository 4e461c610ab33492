package io.grove.core.forecast;

import io.grove.core.operation.Job;
import io.grove.core.operation.JobEndReason;
import io.grove.core.operation.JobState;
import io.grove.core.operation.Operation;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.pool.PoolsConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.DoubleSupplier;

/**
 * How long jobs run, as the scheduler will see them end (a job stopped at its time limit counts as
 * long as it ran: one like it is stopped at its limit too): first the task's own finished jobs; then
 * its spec's {@code expected_duration}, corrected by how far the user's past declarations in the
 * pool were off (their jobs' seen duration against their declared one); then the user's recent
 * jobs in the same pool; else unknown, and said so. Durations are drawn from what was seen (each
 * draw picks one), so that a forecast over several draws is a band.
 */
public final class Durations {

    /** The most recent completed jobs kept per key. */
    static final int KEPT = 200;

    /** Where an estimate comes from. */
    public enum Kind {
        /** The task's own finished jobs, drawn per job. */
        OWN_TASK,
        /** Its spec's declared duration, times a learnt error drawn per operation's task. */
        DECLARED,
        /** Other operations' jobs of the user in the pool, drawn once per operation's task. */
        USER_IN_POOL
    }

    /**
     * Where an estimate comes from, and its samples (milliseconds). A node reports a job's end at
     * once (its agent heartbeats then), so how long a job runs is when the scheduler sees it end.
     */
    public record Source(String says, long[] millis, Kind kind, int operations) {
        /** The median, in a sentence's terms. */
        public Duration median() {
            long[] sorted = millis.clone();
            Arrays.sort(sorted);
            return Duration.ofMillis(sorted[sorted.length / 2]);
        }

        /** The longest seen. */
        long longest() {
            return Arrays.stream(millis).max().orElse(0);
        }

        boolean ownTask() {
            return kind == Kind.OWN_TASK;
        }
    }

    private final Map<String, List<Long>> byTask = new HashMap<>();
    private final Map<String, List<Long>> byUserPool = new HashMap<>();
    /** How many operations {@link #byUserPool}'s samples of each user and pool came from. */
    private final Map<String, Integer> operationsIn = new HashMap<>();
    /**
     * How operations of one user in one pool were seen to differ: each one's median job length over
     * the median of those of its user and pool, for the users and pools with two operations or more.
     */
    private double[] operationRatios = new double[0];
    /** Seen over declared duration of the user's jobs in a pool that declared one. */
    private final Map<String, List<Double>> errors = new HashMap<>();

    /** The most recent finished jobs read per operation. */
    static final int READ_PER_OPERATION = 50;

    /**
     * Of the jobs told to stop gracefully (a gang's restart, a time limit, a graceful preemption,
     * a drain), the part of their grace each took before its node reported it ended: 0 ended at
     * once, 1 ran until it was killed.
     */
    private final List<Double> graceTaken = new ArrayList<>();

    /** The most graceful stops learnt from. */
    static final int GRACE_KEPT = 1_000;

    /**
     * Learns from the finished jobs of these operations (the last {@value #READ_PER_OPERATION} of
     * each): how long the completed ones ran, and how much of its tree's grace each one told to stop
     * gracefully took.
     */
    public static Durations of(Iterable<Operation> operations, PoolsConfig config) {
        Durations durations = new Durations();
        // the operation of each of byUserPool's samples, in its order
        Map<String, List<String>> operationOf = new HashMap<>();
        for (Operation operation : operations) {
            String pool = operation.poolByTree().values().stream().findFirst().orElse("");
            List<Job> finished = operation.finishedJobs();
            for (Job job : finished.subList(Math.max(0, finished.size() - READ_PER_OPERATION), finished.size())) {
                durations.learnGrace(job, config);
                // a job stopped at its time limit would have run at least as long as it did: one like it
                // runs as long again, to be stopped at its limit in the copy too
                boolean limited = job.endReason() == JobEndReason.TIME_LIMIT;
                if ((job.state() == JobState.COMPLETED || limited) && job.finishTime() != null && job.startTime() != null) {
                    long millis = Math.max(1, Duration.between(job.startTime(), job.finishTime()).toMillis());
                    String userPool = operation.user() + "@" + pool;
                    add(durations.byTask, operation.id() + "/" + job.task().name(), millis);
                    add(durations.byUserPool, userPool, millis);
                    add(operationOf, userPool, operation.id());
                    Long declared = job.task().expectedDurationMillis();
                    if (declared != null && declared > 0 && !limited) {
                        add(durations.errors, userPool, (double) millis / declared);
                    }
                }
            }
        }
        durations.operationRatios = operationRatios(durations.byUserPool, operationOf);
        operationOf.forEach((userPool, of) -> durations.operationsIn.put(userPool, (int) of.stream().distinct().count()));
        return durations;
    }

    /** The most operation ratios kept. */
    static final int RATIOS_KEPT = 1_000;

    private static double[] operationRatios(Map<String, List<Long>> samples, Map<String, List<String>> operations) {
        List<Double> ratios = new ArrayList<>();
        for (Map.Entry<String, List<Long>> group : samples.entrySet()) {
            Map<String, List<Long>> byOperation = new HashMap<>();
            List<String> of = operations.get(group.getKey());
            for (int i = 0; i < group.getValue().size(); i++) {
                byOperation.computeIfAbsent(of.get(i), k -> new ArrayList<>()).add(group.getValue().get(i));
            }
            if (byOperation.size() < 2) {
                continue;
            }
            double[] medians = byOperation.values().stream().mapToDouble(Durations::median).sorted().toArray();
            double center = medians.length % 2 == 1 ? medians[medians.length / 2]
                    : (medians[medians.length / 2 - 1] + medians[medians.length / 2]) / 2;
            for (double median : medians) {
                if (ratios.size() < RATIOS_KEPT) {
                    ratios.add(median / center);
                }
            }
        }
        return ratios.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    }

    private static double median(List<Long> values) {
        long[] sorted = values.stream().mapToLong(Long::longValue).sorted().toArray();
        return sorted.length % 2 == 1 ? sorted[sorted.length / 2]
                : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2.0;
    }

    private void learnGrace(Job job, PoolsConfig config) {
        PoolTreeConfig tree = job.tree() == null ? null : config.trees().get(job.tree());
        if (job.stopsBy() == null || job.finishTime() == null || tree == null || graceTaken.size() >= GRACE_KEPT) {
            return;
        }
        long grace = tree.preemption().allocationGracefulPreemptionTimeout().toMillis();
        if (grace > 0) {
            long took = job.finishTime().toEpochMilli() - (job.stopsBy().toEpochMilli() - grace);
            graceTaken.add(Math.max(0, Math.min(1, (double) took / grace)));
        }
    }

    /**
     * How much of its grace a job told to stop gracefully takes, one draw at a time: as the jobs
     * told so were seen to take, else anything from none to all of it, evenly.
     */
    public DoubleSupplier graceTaken(SplittableRandom random) {
        if (graceTaken.isEmpty()) {
            return random::nextDouble;
        }
        double[] seen = graceTaken.stream().mapToDouble(Double::doubleValue).toArray();
        return () -> seen[random.nextInt(seen.length)];
    }

    /** How many graceful stops were learnt from. */
    public int gracefulStopsSeen() {
        return graceTaken.size();
    }

    /** What the forecast assumes of graceful stops, in a sentence. */
    public String graceSays() {
        if (graceTaken.isEmpty()) {
            return "a job told to stop gracefully ends anywhere within its grace (no graceful stop seen yet)";
        }
        double[] sorted = graceTaken.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return String.format(Locale.ROOT, "a job told to stop gracefully takes about %.0f%% of its grace (the median of "
                + "the %d graceful stop(s) seen)", 100 * sorted[sorted.length / 2], sorted.length);
    }

    private static <T> void add(Map<String, List<T>> map, String key, T value) {
        List<T> list = map.computeIfAbsent(key, k -> new ArrayList<>());
        list.add(value);
        if (list.size() > KEPT) {
            list.remove(0);
        }
    }

    /**
     * What is known of the job durations of task {@code task} of operation {@code id}: its own
     * finished jobs, else its spec's {@code expected} duration (corrected as the user's past
     * declarations in the pool were off), else its user's jobs in the pool; or {@code null} when
     * nothing is.
     */
    public Source of(String id, String user, String pool, String task, Duration expected) {
        List<Long> own = byTask.get(id + "/" + task);
        if (own != null && !own.isEmpty()) {
            return new Source(own.size() + " finished job(s) of its task", unbox(own), Kind.OWN_TASK, 1);
        }
        if (expected != null) {
            return declared(user, pool, expected);
        }
        List<Long> similar = byUserPool.get(user + "@" + pool);
        if (similar != null && !similar.isEmpty()) {
            return new Source(similar.size() + " recent job(s) of " + user + " in " + pool, unbox(similar),
                    Kind.USER_IN_POOL, operationsIn.get(user + "@" + pool));
        }
        return null;
    }

    private Source declared(String user, String pool, Duration expected) {
        List<Double> seen = errors.get(user + "@" + pool);
        if (seen == null || seen.isEmpty()) {
            return new Source("its spec's expected_duration", new long[] {expected.toMillis()}, Kind.DECLARED, 1);
        }
        long[] millis = new long[seen.size()];
        double low = Double.MAX_VALUE;
        double high = 0;
        for (int i = 0; i < millis.length; i++) {
            double ratio = seen.get(i);
            millis[i] = Math.max(1, Math.round(expected.toMillis() * ratio));
            low = Math.min(low, ratio);
            high = Math.max(high, ratio);
        }
        return new Source(String.format(Locale.ROOT, "its spec's expected_duration of %s, times how %s's %d "
                + "finished job(s) in %s ran against theirs (%.2f to %.2f)", StartForecast.human(expected), user,
                millis.length, pool, low, high), millis, Kind.DECLARED, 1);
    }

    /** One draw from a source's samples. */
    static long draw(Source source, SplittableRandom random) {
        return source.millis()[random.nextInt(source.millis().length)];
    }

    /**
     * The length of the jobs of a task in one draw. Drawn from other operations' jobs (the user's in
     * the pool), the task is one more operation: of {@code n} operations seen, it is like none of
     * them 1 in n + 1 (a job of one of them, times how operations of one user in one pool were seen
     * to differ); like one of them otherwise. Jobs of one operation often run alike, so twenty jobs
     * of one operation say little of the next operation's length.
     */
    long drawTask(Source source, SplittableRandom random) {
        long drawn = draw(source, random);
        if (source.kind() != Kind.USER_IN_POOL || operationRatios.length == 0
                || random.nextInt(source.operations() + 1) != 0) {
            return drawn;
        }
        return Math.max(1, Math.round(drawn * operationRatios[random.nextInt(operationRatios.length)]));
    }

    /** What the forecast assumes of how operations of one user in one pool differ, in a sentence; null when none was seen. */
    public String operationsDifferSays() {
        if (operationRatios.length == 0) {
            return null;
        }
        return String.format(Locale.ROOT, "operations of one user in one pool were seen to run %.2f to %.2f times their "
                + "median (%d operation(s)): a task known only from the user's other operations in its pool is taken "
                + "to differ as much, 1 in n + 1 draws for n operations seen", operationRatios[0],
                operationRatios[operationRatios.length - 1], operationRatios.length);
    }

    private static long[] unbox(List<Long> list) {
        long[] out = new long[list.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = list.get(i);
        }
        return out;
    }
}
