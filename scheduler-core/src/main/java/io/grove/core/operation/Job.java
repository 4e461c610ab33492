package io.grove.core.operation;

import io.grove.core.resource.Resources;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * One attempt to run one job of an operation on one node. An attempt that is aborted ends here and
 * its index is retried as a new attempt with a new id.
 */
public final class Job {

    /** The id when it is not {@code <operation id>-<sequence>}; else {@code null}, and {@link #sequence} says it. */
    private final String otherId;
    private final long sequence;
    private final String operationId;
    private final TaskSpec task;
    private final int index;
    private final int attempt;
    private final String nodeId;
    private final String tree;
    private final Instant startTime;
    private final Set<String> startedByPreempting;
    private final double preemptorFairShareAtStart;
    private JobState state = JobState.RUNNING;
    private Instant finishTime;
    private JobEndReason endReason;
    private String message;
    /** What it was preempted for, once it was; {@code null} otherwise. */
    private PreemptedFor preemptedFor;
    /** When its graceful interruption's grace runs out (epoch ms), or 0 while it is not being interrupted. */
    private long stopsByMs;
    /** The UUIDs of the GPUs its node gave it, once the node said. */
    private List<String> devices = List.of();
    private JobCpu cpu;
    /** Its process's exit code as its node said, or {@link #NO_EXIT_CODE}. */
    private int exitCode = NO_EXIT_CODE;
    /** How it is getting on as its node last said, or {@code null} before it said anything. */
    private JobStatus status;
    /** Its last checkpoint by the scheduler's clock, epoch ms; 0: none reported. */
    private long checkpointMs;
    /** Work lost when it was preempted: ms since its last checkpoint (or start) at its end; -1: none lost. */
    private long lostWorkMs = -1;
    /** Its time limit in its tree, ms (0: none), kept once worked out (it is fixed at submission); -1: not yet. */
    private long limitMs = -1;
    /** A gang's rank: since when its gang waited to start together, epoch ms; -1: not a gang's. */
    private long waitedFromMs = -1;
    /** Where {@link RunningJobs} keeps it while it runs. */
    int slot = -1;

    Job(String id, String operationId, TaskSpec task, int index, int attempt, String nodeId, String tree,
            Instant startTime, Set<String> startedByPreempting, double preemptorFairShareAtStart) {
        this(JobId.sequenceOf(id, operationId), id, operationId, task, index, attempt, nodeId, tree, startTime,
                startedByPreempting, preemptorFairShareAtStart);
    }

    /** A job whose id is {@code operationId + "-" + sequence}. */
    Job(long sequence, String operationId, TaskSpec task, int index, int attempt, String nodeId, String tree,
            Instant startTime, Set<String> startedByPreempting, double preemptorFairShareAtStart) {
        this(sequence, null, operationId, task, index, attempt, nodeId, tree, startTime, startedByPreempting,
                preemptorFairShareAtStart);
    }

    private Job(long sequence, String id, String operationId, TaskSpec task, int index, int attempt, String nodeId,
            String tree, Instant startTime, Set<String> startedByPreempting, double preemptorFairShareAtStart) {
        boolean usual = JobId.usual(sequence);
        this.sequence = usual ? sequence : -1;
        this.otherId = usual ? null : id != null ? id : JobId.format(operationId, sequence);
        this.operationId = operationId;
        this.task = task;
        this.index = index;
        this.attempt = attempt;
        this.nodeId = nodeId;
        this.tree = tree;
        this.startTime = startTime;
        this.startedByPreempting = Set.copyOf(startedByPreempting);
        this.preemptorFairShareAtStart = preemptorFairShareAtStart;
    }

    void finish(JobState end, Instant at, JobEndReason reason, String text) {
        this.state = end;
        this.finishTime = at;
        this.endReason = reason;
        this.message = text;
    }

    /** What it is preempted for (the scheduler's thread only). */
    public void preemptedFor(PreemptedFor what) {
        this.preemptedFor = what;
    }

    /** What it was preempted for, or {@code null} when it was not. */
    public PreemptedFor preemptedFor() {
        return preemptedFor;
    }

    void markInterrupting(Instant stopsBy) {
        this.stopsByMs = Math.max(1, stopsBy.toEpochMilli());
    }

    /** The id; in its usual form built on each call (see {@link JobId}), so keep it only as long as needed. */
    public String id() {
        return otherId != null ? otherId : JobId.format(operationId, sequence);
    }

    /**
     * The number {@code n} of an id of the usual form {@code <operation id>-<n>}, or -1 when the id
     * has another form (then {@link #id} is kept as it is): lets a caller write the id without
     * building it.
     */
    public long idSequence() {
        return otherId != null ? -1 : sequence;
    }

    /** {@code id().hashCode()}, without building the id. */
    int idHash() {
        return otherId != null ? otherId.hashCode() : JobId.hash(operationId, sequence);
    }

    /** {@code id().equals(candidate)}, without building the id. */
    boolean hasId(String candidate) {
        return otherId != null ? otherId.equals(candidate) : JobId.matches(candidate, operationId, sequence);
    }

    /** Whether the two have the same id. */
    boolean sameId(Job other) {
        if (otherId == null && other.otherId == null) {
            return sequence == other.sequence && operationId.equals(other.operationId);
        }
        return id().equals(other.id());
    }

    public String operationId() {
        return operationId;
    }

    public TaskSpec task() {
        return task;
    }

    /** Index of the job within its task, from 0. */
    public int index() {
        return index;
    }

    /** 0 for the first attempt of this index. */
    public int attempt() {
        return attempt;
    }

    public Resources resources() {
        return task.jobResources();
    }

    public String nodeId() {
        return nodeId;
    }

    public String tree() {
        return tree;
    }

    public Instant startTime() {
        return startTime;
    }

    /**
     * Its time limit in its tree (its operation's, for its task, as at submission; {@code null}
     * for none), worked out from its operation the first time and then kept: reservations ask for
     * every job on their nodes at every decision. {@code operation} gives the operation, or
     * {@code null} when it is not known there (then nothing is kept).
     */
    public Duration timeLimit(Supplier<Operation> operation) {
        if (limitMs < 0) {
            Operation of = operation.get();
            if (of == null) {
                return null;
            }
            Duration limit = of.hasTimeLimits() ? of.timeLimit(tree, of.position(task)) : null;
            limitMs = limit == null ? 0 : limit.toMillis();
        }
        return limitMs == 0 ? null : Duration.ofMillis(limitMs);
    }

    /** Its node says it checkpointed at {@code at} (the scheduler's clock), held within its run. */
    public void checkpointed(Instant at) {
        long ms = Math.max(startTime.toEpochMilli(), at.toEpochMilli());
        checkpointMs = Math.max(checkpointMs, ms);
    }

    /** Its last checkpoint, or {@code null} when it reported none. */
    public Instant lastCheckpoint() {
        return checkpointMs == 0 ? null : Instant.ofEpochMilli(checkpointMs);
    }

    /** Where the work a preemption would lose starts: its last checkpoint, else its start, in epoch ms. */
    public long workSinceMs() {
        return Math.max(checkpointMs, startTime.toEpochMilli());
    }

    /** A gang's rank: its gang waited to start together since {@code at} (its last restart, or submission); else null. */
    public void waitedFrom(Instant at) {
        waitedFromMs = at == null ? -1 : at.toEpochMilli();
    }

    /** How long its gang waited to start together, ms: what taking it wastes beyond its work (0 for a job of no gang). */
    public long gangWaitMs() {
        return waitedFromMs < 0 ? 0 : Math.max(0, startTime.toEpochMilli() - waitedFromMs);
    }

    /** It was preempted at {@code endMs}: the work since its last checkpoint is lost. */
    public void lostWork(long endMs) {
        this.lostWorkMs = Math.max(0, endMs - workSinceMs());
    }

    /** The work it lost to a preemption, in ms since its last checkpoint (or start); -1 when it lost none. */
    public long lostWorkMs() {
        return lostWorkMs;
    }

    public JobState state() {
        return state;
    }

    public Instant finishTime() {
        return finishTime;
    }

    public JobEndReason endReason() {
        return endReason;
    }

    /** The error, exit code or preemption text, if any. */
    public String message() {
        return message;
    }

    /** Operations whose jobs were preempted to start this one; empty for a regular start. */
    public Set<String> startedByPreempting() {
        return startedByPreempting;
    }

    /** The dominant fair share of this job's operation when it was started by preemption. */
    public double preemptorFairShareAtStart() {
        return preemptorFairShareAtStart;
    }

    /** A graceful interruption was sent and the job still runs out its grace. */
    /** No exit code: the job did not end by its process exiting, or its node did not say. */
    public static final int NO_EXIT_CODE = Integer.MIN_VALUE;

    /** Its process's exit code as its node said it, or {@code null}. */
    public Integer exitCode() {
        return exitCode == NO_EXIT_CODE ? null : exitCode;
    }

    /** Its node says how its process exited. */
    public void exitCode(Integer code) {
        this.exitCode = code == null ? NO_EXIT_CODE : code;
    }

    /** Its CPU as its node last counted it, or {@code null} before the node said. */
    public JobCpu cpu() {
        return cpu;
    }

    /** Its node counted its CPU. */
    public void cpu(JobCpu counted) {
        this.cpu = counted;
    }

    /** How it is getting on (preparing, its image's digest and pull time) as its node last said, or {@code null}. */
    public JobStatus status() {
        return status;
    }

    /** Its node says how it is getting on. */
    public void status(JobStatus said) {
        this.status = said;
    }

    /** The UUIDs of the GPUs its node gave it; empty for none or before the node said. */
    public List<String> devices() {
        return devices;
    }

    /** Its node says which GPUs it holds. */
    public void devices(List<String> uuids) {
        if (!uuids.equals(devices)) {
            this.devices = List.copyOf(uuids);
        }
    }

    public boolean interrupting() {
        return stopsByMs != 0;
    }

    /** When the grace of its graceful interruption runs out (its node then kills it), or {@code null}. */
    public Instant stopsBy() {
        return stopsByMs == 0 ? null : Instant.ofEpochMilli(stopsByMs);
    }

    @Override
    public String toString() {
        return id() + "(" + operationId + "/" + task.name() + "#" + index + " on " + nodeId + ", " + state + ")";
    }
}
