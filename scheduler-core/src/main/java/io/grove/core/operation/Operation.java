package io.grove.core.operation;

import io.grove.core.resource.ResourceType;
import io.grove.core.resource.Resources;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An operation and its jobs. Owned by the {@link OperationRegistry}, which is the only writer;
 * everything else reads. Job indices wait in per-task queues until a heartbeat starts them; an
 * aborted attempt puts its index back, a failed one too until the failure limit is passed.
 */
public final class Operation {

    private final String id;
    private OperationSpec spec;
    private final String user;
    private final Instant submitTime;
    private final Map<String, String> poolByTree = new LinkedHashMap<>();
    private final Set<String> pendingTrees = new LinkedHashSet<>();
    private final Map<String, PendingIndexes> pendingIndexes = new LinkedHashMap<>();
    private final TaskSpec[] tasks;
    private final PendingIndexes[] pendingByPosition;
    private final double[][] jobVectors;
    private final RunningJobs running = new RunningJobs();
    /** The most recent ended attempts kept for views; counts cover all of them. */
    public static final int FINISHED_JOBS_KEPT = 1000;

    private final ArrayDeque<Job> finished = new ArrayDeque<>();
    private final Map<String, double[]> usageByTree = new HashMap<>();
    private final double[] pendingResources = new double[ResourceType.COUNT];
    private OperationState finalState;
    private boolean held;
    private String submissionKey;
    private String finalMessage;
    private Instant finishTime;
    private int pendingJobCount;
    private int completedJobs;
    private int failedJobs;
    private int abortedJobs;
    private long jobSequence;
    /** Each tree's job time limit per task position, in milliseconds (0: none), fixed at submission. */
    private final Map<String, long[]> timeLimits = new HashMap<>();
    /** Its pools' paths to their roots as the registry last made them; dropped when it moves. */
    private PoolPaths paths;

    Operation(String id, OperationSpec spec, String user, Instant submitTime) {
        this.id = id;
        this.spec = spec;
        this.user = user;
        this.submitTime = submitTime;
        this.tasks = spec.tasks().values().toArray(new TaskSpec[0]);
        this.pendingByPosition = new PendingIndexes[tasks.length];
        this.jobVectors = new double[tasks.length][];
        for (int t = 0; t < tasks.length; t++) {
            jobVectors[t] = tasks[t].jobResources().toArray();
        }
        for (TaskSpec task : spec.tasks().values()) {
            PendingIndexes queue = new PendingIndexes(task.jobCount());
            pendingIndexes.put(task.name(), queue);
            pendingByPosition[pendingIndexes.size() - 1] = queue;
            addPending(task, task.jobCount());
        }
    }

    private void addPending(TaskSpec task, int count) {
        pendingJobCount += count;
        double[] job = task.jobResources().toArray();
        for (int r = 0; r < job.length; r++) {
            pendingResources[r] += job[r] * count;
        }
    }

    void place(String tree, String pool, boolean pending) {
        poolByTree.put(tree, pool);
        paths = null;
        if (pending) {
            pendingTrees.add(tree);
        } else {
            pendingTrees.remove(tree);
        }
        usageByTree.computeIfAbsent(tree, t -> new double[ResourceType.COUNT]);
    }

    void timeLimits(String tree, long[] millisByTask) {
        for (long millis : millisByTask) {
            if (millis > 0) {
                timeLimits.put(tree, millisByTask);
                return;
            }
        }
    }

    /** Whether a job of it has a time limit in some tree (else nothing about limits costs anything). */
    public boolean hasTimeLimits() {
        return !timeLimits.isEmpty();
    }

    /** How long a job of the task at {@code position} may run in {@code tree}, as fixed at submission, or {@code null}. */
    public Duration timeLimit(String tree, int position) {
        long[] limits = timeLimits.isEmpty() ? null : timeLimits.get(tree);
        return limits == null || limits[position] <= 0 ? null : Duration.ofMillis(limits[position]);
    }

    /** Takes a new spec with the same tasks (a runtime update of weight, limits or pool). */
    void respec(OperationSpec updated) {
        if (!updated.tasks().equals(spec.tasks())) {
            throw new IllegalArgumentException("an update cannot change the tasks of " + id);
        }
        this.spec = updated;
    }

    void activate(String tree) {
        pendingTrees.remove(tree);
    }

    /**
     * Takes a pending index of {@code task} — the next one, or {@code index} when it is not -1 (a
     * gang's rank) — and records a running attempt of it.
     */
    Job start(TaskSpec task, int wanted, String nodeId, String tree, Instant now, Set<String> preempting, double fairShare) {
        PendingIndexes queue = pendingIndexes.get(task.name());
        if (queue == null || queue.isEmpty()) {
            throw new IllegalStateException("operation " + id + " has no pending job of task " + task.name());
        }
        int index;
        int attempt;
        if (wanted < 0) {
            index = queue.poll();
            attempt = queue.startAttempt(index);
        } else {
            index = wanted;
            attempt = queue.take(wanted);
            if (attempt < 0) {
                throw new IllegalStateException("operation " + id + ": job index " + wanted + " of task " + task.name()
                        + " is not pending");
            }
        }
        addPending(task, -1);
        Job job = new Job(++jobSequence, id, task, index, attempt, nodeId, tree, now, preempting, fairShare);
        job.waitedFrom(spec.gang() ? waitingSince(now) : null);
        running.add(job);
        add(usageByTree.computeIfAbsent(tree, t -> new double[ResourceType.COUNT]), job.resources(), 1);
        return job;
    }

    /** Re-creates a running attempt from the journal: its index leaves its queue and runs with its id; later ids follow. */
    Job restoreRunning(String jobId, TaskSpec task, int index, int attempt, String nodeId, String tree, Instant start,
            Set<String> preempting, double fairShare) {
        PendingIndexes queue = pendingIndexes.get(task.name());
        if (queue == null || !queue.remove(index)) {
            throw new IllegalStateException("operation " + id + ": job index " + index + " of task " + task.name()
                    + " is not pending, cannot restore " + jobId);
        }
        addPending(task, -1);
        int dash = jobId.lastIndexOf('-');
        if (dash > 0) {
            try {
                jobSequence = Math.max(jobSequence, Long.parseLong(jobId.substring(dash + 1)));
            } catch (NumberFormatException ignored) {
                // ids not made here keep the sequence as it is
            }
        }
        Job job = new Job(jobId, id, task, index, attempt, nodeId, tree, start, preempting, fairShare);
        job.waitedFrom(spec.gang() ? waitingSince(start) : null);
        running.add(job);
        add(usageByTree.computeIfAbsent(tree, t -> new double[ResourceType.COUNT]), job.resources(), 1);
        return job;
    }

    /** When a gang started at {@code at} began to wait: its last attempt's end by then (a restart), or its submission. */
    private Instant waitingSince(Instant at) {
        for (Iterator<Job> ended = finished.descendingIterator(); ended.hasNext();) {
            Instant time = ended.next().finishTime();
            if (!time.isAfter(at)) {
                return time.isAfter(submitTime) ? time : submitTime;
            }
        }
        return submitTime;
    }

    /** Re-creates a finished operation's outcome from the journal's compacted form. */
    void restoreFinished(OperationState state, Instant at, String message, int completed, int failed, int aborted) {
        this.completedJobs = completed;
        this.failedJobs = failed;
        this.abortedJobs = aborted;
        finishOperation(state, at, message);
    }

    /** Ends a running attempt; aborted and (below the limit) failed indices go back to pending. */
    void end(Job job, JobState state, Instant now, JobEndReason reason, String message) {
        if (running.remove(job) == null) {
            throw new IllegalStateException("job " + job.id() + " is not running in operation " + id);
        }
        job.finish(state, now, reason, message);
        finished.addLast(job);
        if (finished.size() > FINISHED_JOBS_KEPT) {
            finished.pollFirst();
        }
        add(usageByTree.get(job.tree()), job.resources(), -1);
        switch (state) {
            case COMPLETED -> completedJobs++;
            case FAILED -> {
                failedJobs++;
                requeue(job);
            }
            case ABORTED -> {
                abortedJobs++;
                requeue(job);
            }
            default -> throw new IllegalArgumentException("not a final job state: " + state);
        }
    }

    private void requeue(Job job) {
        if (finalState == null) {
            pendingIndexes.get(job.task().name()).retry(job.index(), job.attempt() + 1);
            addPending(job.task(), 1);
        }
    }

    private static void add(double[] into, Resources amount, int sign) {
        for (int r = 0; r < ResourceType.COUNT; r++) {
            into[r] += sign * amount.get(r);
        }
    }

    void finishOperation(OperationState state, Instant now, String message) {
        this.finalState = state;
        this.finalMessage = message;
        this.finishTime = now;
        for (PendingIndexes queue : pendingIndexes.values()) {
            queue.clear();
        }
        Arrays.fill(pendingResources, 0);
        pendingJobCount = 0;
    }

    /** Whether more jobs have failed than the spec tolerates. */
    boolean failureLimitExceeded() {
        return failedJobs > spec.maxFailedJobCount();
    }

    boolean allJobsCompleted() {
        return completedJobs == spec.jobCount();
    }

    public String id() {
        return id;
    }

    public OperationSpec spec() {
        return spec;
    }

    public String user() {
        return user;
    }

    public Instant submitTime() {
        return submitTime;
    }

    /** Pending (held in every tree), running, or its final state. */
    public OperationState state() {
        if (finalState != null) {
            return finalState;
        }
        return pendingTrees.size() == poolByTree.size() ? OperationState.PENDING : OperationState.RUNNING;
    }

    /** Why it failed or was aborted, if it did. */
    public String finalMessage() {
        return finalMessage;
    }

    public Instant finishTime() {
        return finishTime;
    }

    PoolPaths paths() {
        return paths;
    }

    void paths(PoolPaths made) {
        paths = made;
    }

    /** Tree to pool, in the spec's tree order. */
    public Map<String, String> poolByTree() {
        return Collections.unmodifiableMap(poolByTree);
    }

    /** Whether the operation runs (is not held by a count limit, nor until its record is durable) in {@code tree}. */
    public boolean runsIn(String tree) {
        return finalState == null && !held && poolByTree.containsKey(tree) && !pendingTrees.contains(tree);
    }

    /**
     * Whether the operation waits for its submission's record to be durable: it holds its place
     * in its pools' counts, but nothing of it runs, and the API does not show it.
     */
    public boolean held() {
        return held;
    }

    void hold(boolean value) {
        this.held = value;
    }

    /** The key its submitter gave so that a retry finds it ({@code Idempotency-Key}), or {@code null}. */
    public String submissionKey() {
        return submissionKey;
    }

    void submissionKey(String key) {
        this.submissionKey = key;
    }

    /** Running attempts in start order, oldest first. */
    public List<Job> runningJobs() {
        return List.of(running.toArray());
    }

    /** The live view of running attempts in start order; do not modify the operation while iterating. */
    public Iterable<Job> runningJobsView() {
        return running;
    }

    /** The running attempts in start order, as a new array (cheap: no walk over the jobs themselves). */
    public Job[] runningJobsArray() {
        return running.toArray();
    }

    public int runningJobCount() {
        return running.size();
    }

    public Job runningJob(String jobId) {
        return running.get(jobId);
    }

    /** The last {@link #FINISHED_JOBS_KEPT} ended attempts, in the order they ended. */
    public List<Job> finishedJobs() {
        return List.copyOf(finished);
    }

    /** Progress for a snapshot: each task's pending state (running jobs counted as pending) and the counts. */
    public Progress progress() {
        return captureProgress().progress(running);
    }

    /** What {@link #progress} takes where the operation changes (queues, counts); its running jobs are added on any thread. */
    public ProgressCapture captureProgress() {
        Map<String, PendingIndexes> queues = new LinkedHashMap<>();
        for (Map.Entry<String, PendingIndexes> task : pendingIndexes.entrySet()) {
            queues.put(task.getKey(), task.getValue().copy());
        }
        return new ProgressCapture(queues, completedJobs, failedJobs, abortedJobs);
    }

    /** An operation's progress in compact form (see {@link #progress}). */
    public record Progress(Map<String, PendingIndexes.State> tasks, int completed, int failed, int aborted) {
        public Progress {
            tasks = Map.copyOf(tasks);
        }
    }

    /** Restores progress from a snapshot, before its running jobs are restored. */
    void restoreProgress(Progress progress) {
        if (!running.isEmpty()) {
            throw new IllegalStateException("operation " + id + " has running jobs; restore progress first");
        }
        Arrays.fill(pendingResources, 0);
        pendingJobCount = 0;
        for (Map.Entry<String, PendingIndexes.State> task : progress.tasks().entrySet()) {
            PendingIndexes queue = pendingIndexes.get(task.getKey());
            if (queue == null) {
                throw new IllegalStateException("operation " + id + " has no task " + task.getKey());
            }
            queue.restore(task.getValue());
        }
        for (TaskSpec task : tasks) {
            addPending(task, pendingIndexes.get(task.name()).size());
        }
        completedJobs = progress.completed();
        failedJobs = progress.failed();
        abortedJobs = progress.aborted();
    }

    public int pendingJobCount() {
        return pendingJobCount;
    }

    public int completedJobCount() {
        return completedJobs;
    }

    public int failedJobCount() {
        return failedJobs;
    }

    public int abortedJobCount() {
        return abortedJobs;
    }

    /** Resources of the jobs not started yet. */
    public Resources pendingResources() {
        return nonNegative(pendingResources);
    }

    /** Resources of the running attempts on the nodes of {@code tree}. */
    public Resources usageIn(String tree) {
        double[] usage = usageByTree.get(tree);
        return usage == null ? Resources.ZERO : nonNegative(usage);
    }

    private static Resources nonNegative(double[] sums) {
        double[] copy = sums.clone();
        for (int r = 0; r < copy.length; r++) {
            copy[r] = Math.max(0, copy[r]);
        }
        return Resources.of(copy);
    }

    /** The id the {@code offset}-th next started job will get (0 = the next one). */
    public String nextJobId(int offset) {
        return id + "-" + (jobSequence + offset + 1);
    }

    /** The job index the {@code offset}-th next start of {@code task} will take. */
    public int pendingIndex(String task, int offset) {
        int k = 0;
        for (int index : pendingIndexes.get(task)) {
            if (k++ == offset) {
                return index;
            }
        }
        throw new IllegalArgumentException("task " + task + " of " + id + " has only " + k + " pending jobs");
    }

    /** The position of one of its tasks in the spec's order. */
    public int position(TaskSpec task) {
        for (int t = 0; t < tasks.length; t++) {
            if (tasks[t] == task || tasks[t].name().equals(task.name())) {
                return t;
            }
        }
        throw new IllegalArgumentException("operation " + id + " has no task " + task.name());
    }

    /** Number of tasks; positions follow the spec's order. */
    public int taskCount() {
        return tasks.length;
    }

    /** The task at a position in the spec's order. */
    public TaskSpec task(int position) {
        return tasks[position];
    }

    /** Jobs of the task at {@code position} waiting to start. */
    public int pendingJobCount(int position) {
        return pendingByPosition[position].size();
    }

    /** The resources of one job of the task at {@code position}; do not modify. */
    public double[] jobVector(int position) {
        return jobVectors[position];
    }

    /** The job indexes of {@code task} waiting to start, retries first; do not hold on to it across changes. */
    public Iterable<Integer> pendingIndexes(String task) {
        PendingIndexes queue = pendingIndexes.get(task);
        return queue == null ? List.of() : queue;
    }

    /** Jobs of {@code task} waiting to start. */
    public int pendingJobCount(String task) {
        PendingIndexes queue = pendingIndexes.get(task);
        return queue == null ? 0 : queue.size();
    }

    @Override
    public String toString() {
        return id + "(" + state() + ")";
    }
}
