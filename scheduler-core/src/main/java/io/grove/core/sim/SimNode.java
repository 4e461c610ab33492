package io.grove.core.sim;

import io.grove.core.cluster.Cluster;
import io.grove.core.node.NodeCondition;
import io.grove.core.node.NodeTopology;
import io.grove.core.operation.JobStatus;
import io.grove.core.resource.Resources;
import io.grove.core.schedule.Decision;
import io.grove.core.schedule.Heartbeat;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.DoubleSupplier;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A simulated exec node: runs the jobs a decision starts until their end time, kills aborted and
 * preempted ones at once (graceful interruptions after their grace), and reports in heartbeats.
 */
public final class SimNode {

    /** A job running on the node. */
    public record RunningJob(String jobId, String operationId, String task, int index, Resources resources,
            Instant endsAt, Heartbeat.Outcome outcome) {
    }

    private final String id;
    private final Set<String> tags;
    private final Resources limits;
    private final Map<String, RunningJob> running = new LinkedHashMap<>();
    private final List<Heartbeat.FinishedJob> finished = new ArrayList<>();
    private boolean up = true;
    /** Bytes of disk the node has for jobs; -1 when it does not say. */
    private long disk = -1;
    private final Map<String, Long> diskOrders = new LinkedHashMap<>();
    private NodeTopology topology = NodeTopology.NONE;
    /** Checkpoints to tell at the next heartbeat, as its jobs' statuses. */
    private final List<JobStatus> checkpoints = new ArrayList<>();
    /** How often an operation's jobs checkpoint ({@code null}: never), when its workload says. */
    private Function<String, Duration> checkpointEvery = operation -> null;
    /** Jobs that checkpoint: start (ms), interval (ms), and the last checkpoint told (its number). */
    private final Map<String, long[]> checkpointing = new LinkedHashMap<>();
    /** The time of the last {@link #advance}. */
    private Instant clock;
    private DoubleSupplier graceTaken = () -> 1.0;

    public SimNode(String id, Set<String> tags, Resources limits) {
        this.id = id;
        this.tags = Set.copyOf(tags);
        this.limits = limits;
    }

    public String id() {
        return id;
    }

    /** Why the node runs no jobs in container images, or {@code null} when it runs them. */
    private String noImages;

    /** The node runs no jobs in container images, for the reason given. */
    public SimNode withoutImages(String why) {
        this.noImages = why;
        return this;
    }

    /** The node has {@code bytes} of disk for jobs, and reports what its running jobs' orders leave of it. */
    public SimNode withDisk(long bytes) {
        this.disk = bytes;
        return this;
    }

    /** The node says where it sits in the network ({@code block=b1,rack=r07}) with every heartbeat. */
    public SimNode withTopology(NodeTopology where) {
        this.topology = where;
        return this;
    }

    public NodeTopology topology() {
        return topology;
    }

    public Resources limits() {
        return limits;
    }

    public boolean isUp() {
        return up;
    }

    /** The machine dies: its jobs are gone and nothing is reported. */
    public void lose() {
        up = false;
        running.clear();
        finished.clear();
    }

    /** The machine comes back empty. */
    public void restore() {
        up = true;
    }

    /** The jobs that run now, oldest first. */
    public List<RunningJob> running() {
        return List.copyOf(running.values());
    }

    /**
     * One heartbeat at {@code now}: the node ends what is due and reports, the cluster decides and
     * applies, the node carries the decision out (its jobs run for {@code durationOf}, and none fails).
     */
    public Decision beat(Cluster cluster, Instant now, Function<String, Duration> durationOf) {
        return beatEach(cluster, now, start -> durationOf.apply(start.operationId()));
    }

    /** {@link #beat}, with a duration for each job started ({@code null} = forever). */
    public Decision beatEach(Cluster cluster, Instant now,
            Function<Decision.JobStart, Duration> durationOf) {
        advance(now);
        Heartbeat heartbeat = heartbeat();
        cluster.report(heartbeat, now);
        Decision decision = cluster.decide(heartbeat, now);
        cluster.apply(decision, now);
        carryOut(decision, now, durationOf, operation -> false);
        return decision;
    }

    /** Takes a job that runs here already (a forecast's copy of a live node). */
    public void adopt(RunningJob job) {
        running.put(job.jobId(), job);
    }

    /** When the next running job ends, or {@code null} when none ends. */
    public Instant nextEnd() {
        Instant next = null;
        for (RunningJob job : running.values()) {
            if (job.endsAt() != null && (next == null || job.endsAt().isBefore(next))) {
                next = job.endsAt();
            }
        }
        return next;
    }

    /** Ends the jobs whose time has come. */
    public void advance(Instant now) {
        clock = now;
        for (RunningJob job : List.copyOf(running.values())) {
            if (job.endsAt() != null && !job.endsAt().isAfter(now)) {
                running.remove(job.jobId());
                finished.add(switch (job.outcome()) {
                    case COMPLETED -> new Heartbeat.FinishedJob(job.jobId(), job.outcome(), 0, null);
                    case FAILED -> new Heartbeat.FinishedJob(job.jobId(), job.outcome(), 1, "simulated failure");
                    case ABORTED -> new Heartbeat.FinishedJob(job.jobId(), job.outcome(), null, "interrupted after its grace");
                });
            }
        }
    }

    /**
     * A job interrupted gracefully ends after this part of its grace (drawn per job; by default
     * all of it: it runs until it is killed). A forecast draws it: a job may end at once on its
     * interruption or use its whole grace.
     */
    public SimNode withGraceTaken(DoubleSupplier part) {
        this.graceTaken = part;
        return this;
    }

    /** Jobs of an operation report a checkpoint every {@code checkpointEvery.apply(operation)} from their start. */
    public SimNode withCheckpoints(Function<String, Duration> every) {
        this.checkpointEvery = every;
        return this;
    }

    /** A running job reports at the next heartbeat that it checkpointed {@code ago} before it. */
    public void checkpoint(String jobId, Duration ago) {
        checkpoints.add(new JobStatus(jobId, null, null, -1, ago.toMillis()));
    }

    /** The heartbeat the node sends now; reported finished jobs are then forgotten. */
    public Heartbeat heartbeat() {
        double[] usage = new double[5];
        List<Heartbeat.RunningJob> jobs = new ArrayList<>();
        for (RunningJob job : running.values()) {
            jobs.add(new Heartbeat.RunningJob(job.jobId(), job.resources()));
            double[] r = job.resources().toArray();
            for (int i = 0; i < usage.length; i++) {
                usage[i] += r[i];
            }
        }
        long ordered = running.keySet().stream().mapToLong(job -> diskOrders.getOrDefault(job, 0L)).sum();
        Heartbeat heartbeat = new Heartbeat(id, tags, limits, Resources.of(usage), jobs, finished, false,
                new NodeCondition(disk < 0 ? -1 : Math.max(0, disk - ordered), null, List.of(), noImages), List.of(),
                periodicCheckpoints(), topology);
        finished.clear();
        checkpoints.clear();
        return heartbeat;
    }

    /**
     * Carries out a decision.
     *
     * @param durationOf how long a job of an operation runs ({@code null} = forever)
     * @param failing whether a job of an operation fails at its end
     */
    public void apply(Decision decision, Instant now, Function<String, Duration> durationOf,
            Predicate<String> failing) {
        carryOut(decision, now, start -> durationOf.apply(start.operationId()), failing);
    }

    /** The checkpoints told by this heartbeat: those asked for, and each checkpointing job's latest if new. */
    private List<JobStatus> periodicCheckpoints() {
        checkpointing.keySet().retainAll(running.keySet());
        if (clock == null || checkpointing.isEmpty()) {
            return List.copyOf(checkpoints);
        }
        List<JobStatus> out = new ArrayList<>(checkpoints);
        long now = clock.toEpochMilli();
        for (Map.Entry<String, long[]> job : checkpointing.entrySet()) {
            long[] at = job.getValue();
            long number = (now - at[0]) / at[1];
            if (number >= 1 && number != at[2]) {
                at[2] = number;
                out.add(new JobStatus(job.getKey(), null, null, -1, now - (at[0] + number * at[1])));
            }
        }
        return out;
    }

    private void carryOut(Decision decision, Instant now, Function<Decision.JobStart, Duration> durationOf,
            Predicate<String> failing) {
        for (Decision.JobAbort abort : decision.aborts()) {
            kill(abort.jobId(), "aborted: " + abort.reason());
        }
        for (Decision.JobPreemption preemption : decision.preemptions()) {
            RunningJob job = running.get(preemption.jobId());
            if (job == null) {
                continue;
            }
            if (preemption.reason() == Decision.PreemptionReason.GRACEFUL
                    || preemption.reason() == Decision.PreemptionReason.POOL_DRAINED
                    || preemption.reason() == Decision.PreemptionReason.NODE_DRAINED
                    || preemption.reason() == Decision.PreemptionReason.GANG_RESTART
                    || preemption.reason() == Decision.PreemptionReason.TIME_LIMIT) {
                Instant graceEnd = now.plusMillis(Math.round(preemption.grace().toMillis() * graceTaken.getAsDouble()));
                if (job.endsAt() == null || !job.endsAt().isBefore(graceEnd)) {   // one that would end as it is killed is killed
                    running.put(job.jobId(), new RunningJob(job.jobId(), job.operationId(), job.task(), job.index(),
                            job.resources(), graceEnd, Heartbeat.Outcome.ABORTED));
                }
            } else {
                kill(preemption.jobId(), preemption.message());
            }
        }
        for (Decision.JobStart start : decision.starts()) {
            Duration duration = durationOf.apply(start);
            running.put(start.jobId(), new RunningJob(start.jobId(), start.operationId(), start.task(), start.index(),
                    start.resources(), duration == null ? null : now.plus(duration),
                    failing.test(start.operationId()) ? Heartbeat.Outcome.FAILED : Heartbeat.Outcome.COMPLETED));
            diskOrders.put(start.jobId(), start.diskSpace());
            Duration every = checkpointEvery.apply(start.operationId());
            if (every != null) {
                checkpointing.put(start.jobId(), new long[] {now.toEpochMilli(), every.toMillis(), 0});
            }
        }
        diskOrders.keySet().retainAll(running.keySet());
    }

    /** A running job fails now (exit 1), reported with the next heartbeat; whether it ran here. */
    public boolean fail(String jobId) {
        if (running.remove(jobId) == null) {
            return false;
        }
        finished.add(new Heartbeat.FinishedJob(jobId, Heartbeat.Outcome.FAILED, 1, "simulated failure"));
        return true;
    }

    private void kill(String jobId, String why) {
        if (running.remove(jobId) != null) {
            finished.add(new Heartbeat.FinishedJob(jobId, Heartbeat.Outcome.ABORTED, null, why));
        }
    }
}
