package io.grove.core.operation;

import java.util.Locale;

/** Life cycle of one job attempt. An aborted job's index goes back to pending as a new attempt. */
public enum JobState {
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
        return this != RUNNING;
    }
}
