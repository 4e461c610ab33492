package io.grove.core.accounting;

import io.grove.core.operation.Operation;
import java.util.Map;
import java.util.TreeMap;

/**
 * One operation as the ledger keeps it once it finished; what its jobs used is in their records.
 *
 * @param pools its pool in each tree, {@code tree:pool,...}
 */
public record OperationRecord(String operationId, String user, String title, String pools, double weight,
        long submittedMs, long finishedMs, String state, int completed, int failed, int aborted, String message) {

    public OperationRecord {
        message = message == null || message.length() <= JobRecord.MAX_MESSAGE ? message
                : message.substring(0, JobRecord.MAX_MESSAGE);
    }

    public static OperationRecord of(Operation operation) {
        StringBuilder pools = new StringBuilder();
        for (Map.Entry<String, String> placed : new TreeMap<>(operation.poolByTree()).entrySet()) {
            pools.append(pools.length() == 0 ? "" : ",").append(placed.getKey()).append(':').append(placed.getValue());
        }
        return new OperationRecord(operation.id(), operation.user(), operation.spec().title(), pools.toString(),
                operation.spec().weight(), operation.submitTime().toEpochMilli(),
                operation.finishTime() == null ? operation.submitTime().toEpochMilli() : operation.finishTime().toEpochMilli(),
                operation.state().key(), operation.completedJobCount(),
                operation.failedJobCount(), operation.abortedJobCount(), operation.finalMessage());
    }
}
