package io.grove.core.operation;

/** Life cycle of an operation: pending (held by a count limit) → running → a final state. */
public enum OperationState {
    PENDING,
    RUNNING,
    COMPLETED,
    FAILED,
    ABORTED;

    public boolean isFinished() {
        return this == COMPLETED || this == FAILED || this == ABORTED;
    }
}
