package io.grove.core.operation;

import java.util.Locale;

/** Life cycle of an operation: pending (held by a count limit) → running → a final state. */
public enum OperationState {
    PENDING,
    RUNNING,
    COMPLETED,
    FAILED,
    ABORTED;

    private final String key = name().toLowerCase(Locale.ROOT);

    /** The name in lower case, as the API, the journal and the ledger write it (made once). */
    public String key() {
        return key;
    }

    public boolean isFinished() {
        return this == COMPLETED || this == FAILED || this == ABORTED;
    }
}
