package io.grove.core.operation;

/** How an operation's jobs are preempted (see docs/api.md#post-apiv1operations). */
public enum PreemptionMode {
    /** Preempted by starving operations like any other. */
    NORMAL,
    /** Never taken by starving operations; interrupted with a long grace when above fair share. */
    GRACEFUL
}
