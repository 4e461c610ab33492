package io.grove.core.preempt;

/** Starvation of an element, in increasing urgency (see docs/scheduling.md#starvation). */
public enum StarvationStatus {
    /** At or above its fair share (times the tolerance), or not for long enough. */
    NON_STARVING,
    /** Below its fair share for longer than {@code fair_share_starvation_timeout}. */
    STARVING,
    /** Below it for longer than {@code fair_share_aggressive_starvation_timeout}, where enabled. */
    AGGRESSIVELY_STARVING;

    public StarvationStatus max(StarvationStatus other) {
        return compareTo(other) >= 0 ? this : other;
    }
}
