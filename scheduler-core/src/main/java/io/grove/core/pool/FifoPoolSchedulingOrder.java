package io.grove.core.pool;

/** How the heartbeat descent walks a FIFO pool: by satisfaction or strictly by FIFO index. */
public enum FifoPoolSchedulingOrder {
    FIFO,
    SATISFACTION
}
