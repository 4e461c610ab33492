package io.grove.core.operation;

/** Life cycle of one job attempt. An aborted job's index goes back to pending as a new attempt. */
public enum JobState {
    RUNNING,
    COMPLETED,
    FAILED,
    ABORTED;

    public boolean isFinished() {
        return this != RUNNING;
    }
}
