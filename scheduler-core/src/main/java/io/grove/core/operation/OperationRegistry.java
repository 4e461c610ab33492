package io.grove.core.operation;

import io.grove.core.pool.PoolTimeLimits;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.pool.PoolsConfig;
import io.grove.core.resource.Resources;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Every operation and running job of the scheduler, with the pools of every tree and their count
 * limits. The single writer of operation state: submissions, job starts and ends, aborts. A
 * submission is checked in every tree before anything changes, so a refused one leaves no trace.
 */
public final class OperationRegistry implements OperationsView {

    private final Map<String, TreePools> trees = new LinkedHashMap<>();
    private final Map<String, OperationCounts> counts = new HashMap<>();
    private final Map<String, Operation> operations = new LinkedHashMap<>();
    /** The operations in submission order, and each one's place in it: pages of a list start anywhere. */
    private final List<Operation> inOrder = new ArrayList<>();
    private final Map<String, Integer> places = new HashMap<>();
    /** Operations by their submitter and {@code Idempotency-Key}. */
    private final Map<String, String> bySubmissionKey = new HashMap<>();
    private final JobsById runningJobs = new JobsById();
    private String defaultTree;
    private RegistryListener listener = RegistryListener.NONE;
    /** Counts reloads of the trees: operations' kept paths to their roots are made again after one. */
    private long treesGeneration;

    public void listener(RegistryListener value) {
        this.listener = value == null ? RegistryListener.NONE : value;
    }

    public OperationRegistry(PoolsConfig config) {
        reconfigure(config);
    }

    /**
     * Takes a new pool configuration whole, or refuses it whole: a configured pool that still holds
     * unfinished operations (itself or below it) cannot be removed, nor can a tree that has them.
     * Ephemeral pools stay. Pending operations that now have room start.
     *
     * @return operations that went from pending to running, with their tree
     * @throws ReloadRefusedException naming the pools or trees in use and their operations
     */
    public List<Activation> reconfigure(PoolsConfig config) {
        PoolsInUse.check(config, operations.values(), trees);
        treesGeneration++;
        this.defaultTree = config.defaultTree();
        List<Activation> activated = new ArrayList<>();
        trees.keySet().retainAll(config.trees().keySet());
        counts.keySet().retainAll(config.trees().keySet());
        for (PoolTreeConfig tree : config.trees().values()) {
            TreePools pools = trees.get(tree.name());
            if (pools == null) {
                pools = new TreePools(tree);
                trees.put(tree.name(), pools);
                counts.put(tree.name(), new OperationCounts(pools));
            } else {
                pools.reconfigure(tree);
                for (String id : counts.get(tree.name()).tryRunAllPending()) {
                    activated.add(activate(id, tree.name()));
                }
            }
        }
        return activated;
    }

    /** An operation that started running in a tree after waiting there. */
    public record Activation(String operationId, String tree) {
    }

    @Override
    public String defaultTree() {
        return defaultTree;
    }

    @Override
    public Set<String> treeNames() {
        return trees.keySet();
    }

    @Override
    public Map<String, List<String>> pathsToRoot(Operation operation) {
        return PoolPaths.of(operation, this, treesGeneration);
    }

    @Override
    public TreePools pools(String tree) {
        TreePools pools = trees.get(tree);
        if (pools == null) {
            throw new IllegalArgumentException("no pool tree '" + tree + "'");
        }
        return pools;
    }

    @Override
    public Map<String, List<String>> placementPaths(OperationSpec spec, String user) {
        return PoolPaths.placement(spec, user, defaultTree, trees);
    }

    @Override
    public OperationCounts counts(String tree) {
        pools(tree);
        return counts.get(tree);
    }

    /**
     * Registers a submission in each of its trees: resolves pools (making ephemeral ones), checks
     * {@code max_operation_count} everywhere first, then counts it in, running or pending.
     *
     * @throws SubmitException if any tree refuses it; then nothing has changed
     */
    public Operation submit(String id, OperationSpec spec, String user, Instant now) {
        return submit(id, spec, user, now, true);
    }

    /**
     * As {@link #submit}, but the operation is {@linkplain Operation#held held} until
     * {@link #release}d (its record is durable) or {@link #withdraw}n (it could not be written).
     */
    public Operation submitHeld(String id, OperationSpec spec, String user, Instant now, String submissionKey) {
        Operation operation = submit(id, spec, user, now, true);
        operation.hold(true);
        keep(operation, submissionKey);
        return operation;
    }

    @Override
    public Operation bySubmissionKey(String user, String key) {
        String id = key == null ? null : bySubmissionKey.get(user + "\u0000" + key);
        return id == null ? null : operations.get(id);
    }

    private void keep(Operation operation, String submissionKey) {
        if (submissionKey != null) {
            operation.submissionKey(submissionKey);
            bySubmissionKey.put(operation.user() + "\u0000" + submissionKey, operation.id());
        }
    }

    /** A held operation's record is durable: it runs from the next fair-share update on. */
    public void release(String id) {
        Operation operation = operations.get(id);
        if (operation != null) {
            operation.hold(false);
            listener.operationSubmitted(operation);
        }
    }

    /**
     * A held operation's record could not be written: it goes as if never submitted (its place
     * in its pools' counts too; operations that waited behind it may start). A pool created for it
     * (an ephemeral one) stays, empty.
     */
    public List<Activation> withdraw(String id) {
        Operation operation = operations.get(id);
        if (operation == null || !operation.held()) {
            throw new IllegalStateException("operation " + id + " is not held");
        }
        operations.remove(id);
        if (operation.submissionKey() != null) {
            bySubmissionKey.remove(operation.user() + "\u0000" + operation.submissionKey());
        }
        int place = places.remove(id);
        inOrder.remove(place);
        for (int i = place; i < inOrder.size(); i++) {
            places.put(inOrder.get(i).id(), i);
        }
        List<Activation> activated = new ArrayList<>();
        for (String tree : operation.poolByTree().keySet()) {
            for (String started : counts.get(tree).remove(id)) {
                activated.add(activate(started, tree));
            }
        }
        return activated;
    }

    /**
     * Re-registers an operation from the journal: as {@link #submit}, but count limits and the
     * ephemeral-pool limit do not refuse it (it was accepted when it was submitted).
     */
    public Operation restoreSubmitted(String id, OperationSpec spec, String user, Instant submitted) {
        return restoreSubmitted(id, spec, user, submitted, null);
    }

    /** As above, with the key it was submitted with. */
    public Operation restoreSubmitted(String id, OperationSpec spec, String user, Instant submitted, String submissionKey) {
        Operation operation = submit(id, spec, user, submitted, false);
        keep(operation, submissionKey);
        return operation;
    }

    private Operation submit(String id, OperationSpec spec, String user, Instant now, boolean enforceLimits) {
        if (operations.containsKey(id)) {
            throw new SubmitException(SubmitError.INVALID_SPEC, "operation id " + id + " is already taken");
        }
        List<String> treeNames = spec.poolTrees().isEmpty() ? List.of(defaultTree) : spec.poolTrees();
        if (Set.copyOf(treeNames).size() != treeNames.size()) {
            throw new SubmitException(SubmitError.INVALID_SPEC, "pool_trees names a tree twice: " + treeNames);
        }
        Map<String, TreePools.Placement> placements = new LinkedHashMap<>();
        Map<String, long[]> timeLimits = new LinkedHashMap<>();
        for (String tree : treeNames) {
            TreePools pools = trees.get(tree);
            if (pools == null) {
                throw new SubmitException(SubmitError.UNKNOWN_TREE, "Pool tree \"" + tree + "\" does not exist; trees: "
                        + trees.keySet(), Map.of("pool_tree", tree));
            }
            TreePools.Placement placement = pools.resolve(spec.optionsFor(tree).pool(), user, !enforceLimits);
            if (enforceLimits) {
                pools.checkEphemeralLimit(placement);
                counts.get(tree).checkCanAdd(pools.contains(placement.pool()) ? placement.pool() : placement.ephemeralParent());
            }
            PoolTimeLimits limits = pools.timeLimits(placement);
            if (enforceLimits) {
                JobTimeLimits.check(spec, limits, tree, placement.pool());
            }
            timeLimits.put(tree, JobTimeLimits.byTask(spec, limits));
            placements.put(tree, placement);
        }
        for (Map.Entry<String, TreePools.Placement> entry : placements.entrySet()) {
            trees.get(entry.getKey()).ensure(entry.getValue(), enforceLimits);
        }
        Operation operation = new Operation(id, spec, user, now);
        for (Map.Entry<String, TreePools.Placement> entry : placements.entrySet()) {
            String tree = entry.getKey();
            String pool = entry.getValue().pool();
            boolean lightweight = trees.get(tree).isLightweight(spec.type(), pool);
            boolean runs = counts.get(tree).add(id, pool, lightweight, enforceLimits);
            operation.place(tree, pool, !runs);
            operation.timeLimits(tree, timeLimits.get(tree));
        }
        operations.put(id, operation);
        places.put(id, inOrder.size());
        inOrder.add(operation);
        return operation;
    }

    @Override
    public Operation operation(String id) {
        return operations.get(id);
    }

    @Override
    public Iterable<Operation> operations() {
        return operations.values();
    }

    @Override
    public List<Operation> operationsAfter(String id) {
        if (id == null) {
            return Collections.unmodifiableList(inOrder);
        }
        Integer place = places.get(id);
        if (place == null) {
            throw new IllegalArgumentException("no operation " + id);
        }
        return Collections.unmodifiableList(inOrder.subList(place + 1, inOrder.size()));
    }

    @Override
    public int operationCount() {
        return operations.size();
    }

    @Override
    public Job runningJob(String jobId) {
        return runningJobs.get(jobId);
    }

    @Override
    public int runningJobCount() {
        return runningJobs.size();
    }

    @Override
    public PendingReason pendingReason(String operationId, String tree) {
        return counts(tree).pendingReason(operationId);
    }

    /** Records a started job (chosen by a heartbeat decision): the task's next pending index. */
    public Job startJob(Operation operation, TaskSpec task, String nodeId, String tree, Instant now,
            Set<String> preempting, double preemptorFairShare) {
        return startJob(operation, task, -1, nodeId, tree, now, preempting, preemptorFairShare);
    }

    /** Records a started job of a given pending index (a gang's rank), or the next one for -1. */
    public Job startJob(Operation operation, TaskSpec task, int index, String nodeId, String tree, Instant now,
            Set<String> preempting, double preemptorFairShare) {
        if (!operation.runsIn(tree)) {
            throw new IllegalStateException("operation " + operation.id() + " does not run in tree " + tree);
        }
        Job job = operation.start(task, index, nodeId, tree, now, preempting, preemptorFairShare);
        runningJobs.put(job);
        listener.jobStarted(job);
        return job;
    }

    /**
     * The operation, if an update may set {@code weight} on it (it is unfinished, the weight in
     * range); else the refusal {@link #update} would make. Changes nothing; a pool move is checked
     * when it is made.
     */
    public Operation checkUpdate(String id, Double weight) {
        Operation operation = operations.get(id);
        if (operation == null) {
            throw new SubmitException(SubmitError.NO_SUCH_OPERATION, "No operation " + id, Map.of("operation_id", id));
        }
        if (operation.state().isFinished()) {
            throw new SubmitException(SubmitError.INVALID_STATE, "Operation " + id + " is already "
                    + operation.state().name().toLowerCase(Locale.ROOT) + " and cannot be updated",
                    Map.of("operation_id", id));
        }
        if (weight != null && !SpecBounds.weightInRange(weight)) {
            throw new SubmitException(SubmitError.INVALID_SPEC, SpecBounds.weightProblem(weight));
        }
        return operation;
    }

    /**
     * Updates an unfinished operation at run time: weight and resource limits in every tree, and
     * optionally its pool in one tree, checked like a submit (the reference's pool-change rules).
     *
     * @param tree the tree whose pool changes; {@code null} with a pool means the operation's first tree
     * @return operations that started running because the old pool had room now
     * @throws SubmitException when there is no such operation, it finished, or the change is refused
     */
    public List<Activation> update(String id, Double weight, Resources limits, String tree,
            String pool) {
        Operation operation = checkUpdate(id, weight);
        String target = pool == null ? null : tree != null ? tree : operation.poolByTree().keySet().iterator().next();
        List<Activation> activated = new ArrayList<>();
        if (pool != null) {
            if (!operation.poolByTree().containsKey(target)) {
                throw new SubmitException(SubmitError.UNKNOWN_TREE, "Operation " + id + " does not run in tree \""
                        + target + "\"", Map.of("pool_tree", target));
            }
            TreePools pools = trees.get(target);
            TreePools.Placement placement = pools.resolve(pool, operation.user());
            if (!placement.pool().equals(operation.poolByTree().get(target))) {
                pools.checkEphemeralLimit(placement);
                boolean existed = pools.contains(placement.pool());
                pools.ensure(placement, true);
                boolean lightweight = pools.isLightweight(operation.spec().type(), placement.pool());
                try {
                    for (String started : counts.get(target).move(id, placement.pool(), lightweight)) {
                        activated.add(activate(started, target));
                    }
                } catch (SubmitException refused) {
                    if (!existed) {
                        pools.release(placement.pool());
                    }
                    throw refused;
                }
                operation.place(target, placement.pool(), counts.get(target).isPending(id));
            }
        }
        operation.respec(operation.spec().withUpdate(weight, limits, target, pool));
        return activated;
    }

    /** Re-creates a running job from the journal (see {@link Operation#restoreRunning}). */
    public Job restoreJob(String operationId, String jobId, String task, int index, int attempt, String nodeId,
            String tree, Instant start, Set<String> preempting, double preemptorFairShare) {
        Operation operation = operations.get(operationId);
        if (operation == null || operation.state().isFinished()) {
            throw new IllegalStateException("cannot restore job " + jobId + ": operation " + operationId
                    + (operation == null ? " is unknown" : " is " + operation.state()));
        }
        TaskSpec spec = operation.spec().tasks().get(task);
        if (spec == null) {
            throw new IllegalStateException("cannot restore job " + jobId + ": no task " + task + " in " + operationId);
        }
        Job job = operation.restoreRunning(jobId, spec, index, attempt, nodeId, tree, start, preempting, preemptorFairShare);
        runningJobs.put(job);
        return job;
    }

    /** Restores an unfinished operation's progress from a snapshot (before its running jobs). */
    public void restoreProgress(String operationId, Operation.Progress progress) {
        Operation operation = operations.get(operationId);
        if (operation == null || operation.state().isFinished()) {
            throw new IllegalStateException("cannot restore the progress of operation " + operationId);
        }
        operation.restoreProgress(progress);
    }

    /** Re-creates a finished operation from the journal's compacted form. */
    public void restoreFinished(String operationId, OperationState state, Instant at, String message, int completed,
            int failed, int aborted) {
        Operation operation = operations.get(operationId);
        if (operation == null || !operation.runningJobs().isEmpty()) {
            throw new IllegalStateException("cannot restore the end of operation " + operationId);
        }
        operation.restoreFinished(state, at, message, completed, failed, aborted);
        for (String tree : operation.poolByTree().keySet()) {
            counts.get(tree).remove(operationId);
        }
    }

    /** Notes that a running job was told to stop gracefully by {@code stopsBy}; it runs until its node reports it ended. */
    public void markInterrupting(String jobId, Instant stopsBy) {
        Job job = runningJobs.get(jobId);
        if (job != null) {
            job.markInterrupting(stopsBy);
        }
    }

    /** The outcome of ending a job: maybe the operation finished and others started. */
    public record JobEnd(Job job, OperationState operationState, List<Job> abortedWithOperation,
            List<Activation> activated) {
    }

    /**
     * Ends a running job. A completed last job completes the operation; a failure beyond
     * {@code max_failed_job_count} fails it (its other jobs are aborted).
     */
    public JobEnd endJob(String jobId, JobState state, Instant now, JobEndReason reason, String message) {
        Job job = runningJobs.remove(jobId);
        if (job == null) {
            throw new IllegalArgumentException("no running job " + jobId);
        }
        Operation operation = operations.get(job.operationId());
        operation.end(job, state, now, reason, message);
        listener.jobEnded(job);
        if (state == JobState.COMPLETED && operation.allJobsCompleted()) {
            return new JobEnd(job, OperationState.COMPLETED, List.of(), finish(operation, OperationState.COMPLETED, now, null));
        }
        if (state == JobState.FAILED && operation.failureLimitExceeded()) {
            String why = "Failed jobs limit exceeded: " + operation.failedJobCount() + " jobs failed, "
                    + operation.spec().maxFailedJobCount() + " allowed; last: " + message;
            List<Job> aborted = abortRunning(operation, now, why);
            return new JobEnd(job, OperationState.FAILED, aborted, finish(operation, OperationState.FAILED, now, why));
        }
        return new JobEnd(job, operation.state(), List.of(), List.of());
    }

    /**
     * Aborts an unfinished operation: its running jobs end aborted (the caller tells their nodes).
     *
     * @throws SubmitException if there is no such operation or it already finished
     */
    /** The operation, if it may be aborted; else the refusal {@link #abort} would make. Changes nothing. */
    public Operation checkAbort(String operationId) {
        Operation operation = operations.get(operationId);
        if (operation == null) {
            throw new SubmitException(SubmitError.NO_SUCH_OPERATION, "No operation " + operationId,
                    Map.of("operation_id", operationId));
        }
        if (operation.state().isFinished()) {
            throw new SubmitException(SubmitError.INVALID_STATE, "Operation " + operationId + " is already "
                    + operation.state().name().toLowerCase(), Map.of("operation_id", operationId,
                    "state", operation.state().name().toLowerCase()));
        }
        return operation;
    }

    public JobEnd abort(String operationId, Instant now, String message) {
        Operation operation = checkAbort(operationId);
        List<Job> aborted = abortRunning(operation, now, message);
        return new JobEnd(null, OperationState.ABORTED, aborted, finish(operation, OperationState.ABORTED, now, message));
    }

    /** Ends every running job of an operation that is finishing; returns them. */
    private List<Job> abortRunning(Operation operation, Instant now, String why) {
        List<Job> aborted = operation.runningJobs();
        for (Job job : aborted) {
            runningJobs.remove(job);
            operation.end(job, JobState.ABORTED, now, JobEndReason.OPERATION_FINISHED, why);
            listener.jobEnded(job);
        }
        return aborted;
    }

    private List<Activation> finish(Operation operation, OperationState state, Instant now, String message) {
        operation.finishOperation(state, now, message);
        listener.operationFinished(operation);
        List<Activation> activated = new ArrayList<>();
        for (String tree : operation.poolByTree().keySet()) {
            for (String id : counts.get(tree).remove(operation.id())) {
                activated.add(activate(id, tree));
            }
        }
        return activated;
    }

    private Activation activate(String id, String tree) {
        operations.get(id).activate(tree);
        return new Activation(id, tree);
    }
}
