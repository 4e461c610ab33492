package io.grove.core.pool;

/** How a pool shares among its children: by weights ({@code fair_share}) or in order ({@code fifo}). */
public enum SchedulingMode {
    FAIR_SHARE,
    FIFO
}
