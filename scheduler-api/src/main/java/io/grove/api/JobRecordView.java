package io.grove.api;

/**
 * {@code GET /api/v1/jobs}: a job attempt that ended, as the ledger keeps it.
 *
 * @param poolPath its pool's path from the root, {@code a/b}
 * @param resources what it ordered
 * @param exitCode its process's exit code (absent when it did not exit on its own)
 * @param reason why it ended as it did ({@code failed}, {@code preempted}, {@code node_offline}, ...)
 * @param message what its node or the scheduler said: a failure's stderr tail (for its owner and its
 *     pools' administrators only), a preemption's preemptor
 * @param cpuSeconds the CPU time its processes used, as its node counted it (absent when not counted)
 * @param gpuSeconds GPUs held times its duration
 * @param lostWorkSeconds when it was preempted: the seconds of work it lost since its last checkpoint
 *     (or its start); absent when it lost none
 */
public record JobRecordView(String id, String operationId, String task, int index, int attempt, String user,
        String tree, String pool, String poolPath, String node, Amounts resources, @Timestamp String startedAt, @Timestamp String finishedAt,
        double seconds, String state, Integer exitCode, String reason, String message, Double cpuSeconds,
        double gpuSeconds, Double lostWorkSeconds) {
}
