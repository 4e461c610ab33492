package io.grove.core.pool;

/** Keys of the FIFO order: higher weight first, earlier start first, fewer pending jobs first. */
public enum FifoSortParameter {
    WEIGHT,
    START_TIME,
    PENDING_JOB_COUNT
}
