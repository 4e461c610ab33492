package io.grove.core.operation;

/**
 * A pool's operation counters (see docs/scheduling.md#operation-count-limits); every count includes the pool's descendants.
 *
 * @param operationCount running and pending operations
 * @param runningOperationCount running operations that are not lightweight
 * @param lightweightRunningOperationCount running lightweight operations
 * @param pendingOperationCount operations queued at this pool by its running limit
 * @param maxOperationCount the effective limit of {@code operationCount}
 * @param maxRunningOperationCount the effective limit of {@code runningOperationCount}
 */
public record PoolOperationCounts(
        int operationCount,
        int runningOperationCount,
        int lightweightRunningOperationCount,
        int pendingOperationCount,
        int maxOperationCount,
        int maxRunningOperationCount) {
}
