package io.grove.core.pool;

/**
 * How starvation preemption chooses its victims among the jobs the rules let it take
 * ({@code preemption_victim_order}; docs/scheduling.md#least-lost-work).
 */
public enum VictimOrder {
    /**
     * The jobs whose loss costs the least work (dominant share × time since the last checkpoint, or
     * the start), on the node of the tree that loses the least; jobs expected to end within the
     * graceful timeout are left to end. The default.
     */
    LEAST_LOST_WORK,
    /** The reference's order: on the heartbeating node, the newest jobs first. */
    NEWEST_FIRST
}
