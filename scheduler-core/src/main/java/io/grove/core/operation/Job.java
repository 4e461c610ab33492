package io.grove.core.operation;

import io.grove.core.resource.Resources;
import java.time.Instant;
import java.util.Set;

/**
 * One attempt to run one job of an operation on one node. An attempt that is aborted ends here and
 * its index is retried as a new attempt with a new id.
 */
public final class Job {

    private final String id;
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
    private boolean interrupting;
    /** Where {@link RunningJobs} keeps it while it runs. */
    int slot = -1;

    Job(String id, String operationId, TaskSpec task, int index, int attempt, String nodeId, String tree,
            Instant startTime, Set<String> startedByPreempting, double preemptorFairShareAtStart) {
        this.id = id;
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

    void markInterrupting() {
        this.interrupting = true;
    }

    public String id() {
        return id;
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
    public boolean interrupting() {
        return interrupting;
    }

    @Override
    public String toString() {
        return id + "(" + operationId + "/" + task.name() + "#" + index + " on " + nodeId + ", " + state + ")";
    }
}
