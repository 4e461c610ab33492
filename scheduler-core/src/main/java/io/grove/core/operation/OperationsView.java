package io.grove.core.operation;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a reader may ask of the operations: the scheduler thread's {@link OperationRegistry} seen
 * without its writers. The views, the event stream, the ledger and the forecasts take this.
 */
public interface OperationsView {

    String defaultTree();

    Set<String> treeNames();

    /**
     * An operation's pool in each of its trees as the path from it up to the root, its first tree
     * first (a pool the tree no longer has: the pool alone); the same unmodifiable map until the
     * operation moves or the trees are reloaded.
     */
    Map<String, List<String>> pathsToRoot(Operation operation);

    TreePools pools(String tree);

    /**
     * Where an operation would go, without submitting it: per tree, the path from its pool (an
     * ephemeral one that does not exist yet included) up to the root. For access rules.
     *
     * @throws SubmitException for an unknown tree or pool, as a submit would
     */
    Map<String, List<String>> placementPaths(OperationSpec spec, String user);

    OperationCounts counts(String tree);

    /** The operation {@code user} submitted with {@code key} ({@code Idempotency-Key}), or {@code null}. */
    Operation bySubmissionKey(String user, String key);

    Operation operation(String id);

    /** Every operation, in submission order. */
    Iterable<Operation> operations();

    /**
     * The operations submitted after {@code id}, in submission order ({@code null}: all of them).
     *
     * @throws IllegalArgumentException if there is no operation {@code id}
     */
    List<Operation> operationsAfter(String id);

    int operationCount();

    Job runningJob(String jobId);

    int runningJobCount();

    /** Why the operation is pending in {@code tree}, or {@code null}. */
    PendingReason pendingReason(String operationId, String tree);
}
