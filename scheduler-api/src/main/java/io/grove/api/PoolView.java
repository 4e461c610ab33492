package io.grove.api;

import com.fasterxml.jackson.annotation.JsonUnwrapped;

/**
 * A pool (or the root) of a tree: every attribute of its what-if element, its operations, and what
 * its configuration declares.
 *
 * @param strongGuaranteeResources as configured
 * @param resourceLimits as configured
 * @param resourceFlow where the pool declares it (an integral pool, or a parent of integral pools)
 * @param burstGuaranteeResources where the pool declares it
 * @param paused whether the pool is paused (or drained) by an administrator, and by whom since when
 */
public record PoolView(
        @JsonUnwrapped ElementView shares,
        String name,
        Operations operations,
        String starvation,
        boolean ephemeral,
        String mode,
        Amounts strongGuaranteeResources,
        Amounts resourceLimits,
        String schedulingTagFilter,
        Amounts resourceFlow,
        Amounts burstGuaranteeResources,
        Paused paused) {

    /**
     * A pause: no new jobs start in the pool's subtree; with {@code drain} its running jobs are
     * stopped too. {@code pool} is the paused pool (this one, or one above it).
     */
    public record Paused(String pool, boolean drain, String by, @Timestamp String since) {
    }

    /** The pool's operations against its count limits. */
    public record Operations(int total, int running, int lightweightRunning, int pending, int maxTotal, int maxRunning) {
    }
}
