package io.grove.core.operation;

/** How an operation's jobs are preempted (reference §1.3, §3.6). */
public enum PreemptionMode {
    /** Preempted by starving operations like any other. */
    NORMAL,
    /** Never taken by starving operations; interrupted with a long grace when above fair share. */
    GRACEFUL
}
