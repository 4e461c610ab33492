package io.grove.core.pool;

/**
 * Tree-level operation-count limits (see docs/pools.md#tree-attributes and docs/scheduling.md#operation-count-limits).
 *
 * @param maxOperationCount running plus pending operations in the whole tree (the root pool)
 * @param maxRunningOperationCount running operations in the whole tree
 * @param maxOperationCountPerPool default for pools without {@code max_operation_count}
 * @param maxRunningOperationCountPerPool default for pools without {@code max_running_operation_count}
 * @param maxEphemeralPoolsPerUser how many ephemeral pools one user may have at a time
 * @param forbidImmediateOperationsInRoot operations may not be placed directly in the root
 */
public record OperationCountSettings(
        int maxOperationCount,
        int maxRunningOperationCount,
        int maxOperationCountPerPool,
        int maxRunningOperationCountPerPool,
        int maxEphemeralPoolsPerUser,
        boolean forbidImmediateOperationsInRoot) {

    public static final OperationCountSettings DEFAULT = new OperationCountSettings(50_000, 2_000, 50, 50, 1, true);
}
