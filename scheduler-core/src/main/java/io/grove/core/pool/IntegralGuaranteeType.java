package io.grove.core.pool;

/** Kind of integral guarantee: none, burst (volume spent up to a burst guarantee) or relaxed. */
public enum IntegralGuaranteeType {
    NONE,
    BURST,
    RELAXED
}
