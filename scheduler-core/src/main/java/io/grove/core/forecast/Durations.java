package io.grove.core.forecast;

import io.grove.core.operation.Job;
import io.grove.core.operation.JobState;
import io.grove.core.operation.Operation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * How long jobs run, as the jobs that completed say: a task's own finished jobs first, else its
 * user's recent jobs in the same pool; else unknown, and said so. Durations are drawn from what
 * was seen (each draw picks one of them), so that a forecast over several draws is a band.
 */
public final class Durations {

    /** The most recent completed jobs kept per key. */
    static final int KEPT = 200;

    /**
     * Where an estimate comes from, and its samples (milliseconds). {@code ownTask}: the samples
     * are the task's own jobs, drawn per job; otherwise they are other operations' jobs, and one
     * draw stands for all of an operation's jobs (jobs of one task are alike; operations differ).
     */
    public record Source(String says, long[] millis, boolean ownTask) {
        /** The median, in a sentence's terms. */
        public Duration median() {
            long[] sorted = millis.clone();
            Arrays.sort(sorted);
            return Duration.ofMillis(sorted[sorted.length / 2]);
        }
    }

    private final Map<String, List<Long>> byTask = new HashMap<>();
    private final Map<String, List<Long>> byUserPool = new HashMap<>();

    /** The most recent finished jobs read per operation. */
    static final int READ_PER_OPERATION = 50;

    /** Learns from the completed jobs of these operations (the last {@value #READ_PER_OPERATION} of each). */
    public static Durations of(Iterable<Operation> operations) {
        Durations durations = new Durations();
        for (Operation operation : operations) {
            String pool = operation.poolByTree().values().stream().findFirst().orElse("");
            List<Job> finished = operation.finishedJobs();
            for (Job job : finished.subList(Math.max(0, finished.size() - READ_PER_OPERATION), finished.size())) {
                if (job.state() == JobState.COMPLETED && job.finishTime() != null && job.startTime() != null) {
                    long millis = Math.max(1, Duration.between(job.startTime(), job.finishTime()).toMillis());
                    add(durations.byTask, operation.id() + "/" + job.task().name(), millis);
                    add(durations.byUserPool, operation.user() + "@" + pool, millis);
                }
            }
        }
        return durations;
    }

    private static void add(Map<String, List<Long>> map, String key, long millis) {
        List<Long> list = map.computeIfAbsent(key, k -> new ArrayList<>());
        list.add(millis);
        if (list.size() > KEPT) {
            list.remove(0);
        }
    }

    /**
     * What is known of the job durations of task {@code task} of operation {@code id}: its own
     * finished jobs, else its user's in the pool, else the spec's {@code expected} duration; or
     * {@code null} when nothing is.
     */
    public Source of(String id, String user, String pool, String task, Duration expected) {
        List<Long> own = byTask.get(id + "/" + task);
        if (own != null && !own.isEmpty()) {
            return new Source(own.size() + " finished job(s) of its task", unbox(own), true);
        }
        List<Long> similar = byUserPool.get(user + "@" + pool);
        if (similar != null && !similar.isEmpty()) {
            return new Source(similar.size() + " recent job(s) of " + user + " in " + pool, unbox(similar), false);
        }
        return expected == null ? null : new Source("its spec's expected_duration", new long[] {expected.toMillis()}, false);
    }

    /** One draw from a source. */
    static long draw(Source source, SplittableRandom random) {
        return source.millis()[random.nextInt(source.millis().length)];
    }

    private static long[] unbox(List<Long> list) {
        long[] out = new long[list.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = list.get(i);
        }
        return out;
    }
}
