package io.grove.core.cluster;

import io.grove.core.node.Node;
import io.grove.core.operation.Job;
import io.grove.core.pool.PoolTimeLimits;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The running jobs that have a time limit, by the moment it passes: O(log n) when such a job
 * starts or ends, nothing for jobs without one, and nothing on a heartbeat — the node checks
 * ({@link Cluster#checkNodes}) take the jobs whose moment came.
 */
final class TimeLimits {

    /** When a job's limit passes, and the limit. */
    record Deadline(Instant at, String jobId, Duration limit) {
    }

    private final TreeSet<Deadline> byTime = new TreeSet<>(
            Comparator.comparing(Deadline::at).thenComparing(Deadline::jobId));
    private final Map<String, Deadline> byJob = new HashMap<>();

    /** A job started (or was revived) with this limit ({@code null}: none). */
    void started(Job job, Duration limit) {
        if (limit == null) {
            return;
        }
        Deadline deadline = new Deadline(job.startTime().plus(limit), job.id(), limit);
        Deadline before = byJob.put(job.id(), deadline);
        if (before != null) {
            byTime.remove(before);
        }
        byTime.add(deadline);
    }

    /** A job ended: its limit no longer matters. */
    void ended(String jobId) {
        if (byJob.isEmpty()) {
            return;
        }
        Deadline deadline = byJob.remove(jobId);
        if (deadline != null) {
            byTime.remove(deadline);
        }
    }

    /** When the next limit passes, or {@code null} when no running job has one. */
    Instant next() {
        return byTime.isEmpty() ? null : byTime.first().at();
    }

    /** The jobs whose limit passed by {@code now}, taken out. */
    List<Deadline> due(Instant now) {
        List<Deadline> out = new ArrayList<>();
        while (!byTime.isEmpty() && !byTime.first().at().isAfter(now)) {
            Deadline deadline = byTime.pollFirst();
            byJob.remove(deadline.jobId());
            out.add(deadline);
        }
        return out;
    }

    /**
     * Asks the nodes of the jobs whose limit passed to stop them gracefully (reason
     * {@code time_limit}) at their next heartbeat, and to come now.
     */
    void enforce(Cluster cluster, Instant now) {
        for (Deadline deadline : due(now)) {
            Job job = cluster.registry().runningJob(deadline.jobId());
            Node node = job == null ? null : cluster.node(job.nodeId());
            if (node != null && !job.interrupting()) {
                node.interrupt(job.id(), STOPPED_FOR, "time limit " + PoolTimeLimits.text(deadline.limit())
                        + " reached: the job started at " + job.startTime() + " and is stopped");
                cluster.gangs().nudge(node.id());
            }
        }
    }

    /** The preemption reason a job past its limit is stopped for, as the API writes it. */
    static final String STOPPED_FOR = "time_limit";

    /** Whether a job that ended was one stopped for its time limit (then it ended {@code TIME_LIMIT}, failed). */
    static boolean stoppedFor(Job job) {
        return job.preemptedFor() != null && STOPPED_FOR.equals(job.preemptedFor().reason());
    }
}
