package io.grove.core.pool;

/**
 * Configuration of the ephemeral subpools {@code <pool>$<user>} that a pool with
 * {@code create_ephemeral_subpools} creates; {@code null} fields take the tree's defaults.
 */
public record EphemeralSubpoolConfig(
        SchedulingMode mode,
        Integer maxRunningOperationCount,
        Integer maxOperationCount,
        PartialResources resourceLimits) {

    public static final EphemeralSubpoolConfig DEFAULT =
            new EphemeralSubpoolConfig(SchedulingMode.FAIR_SHARE, null, null, PartialResources.EMPTY);

    public EphemeralSubpoolConfig {
        mode = mode == null ? SchedulingMode.FAIR_SHARE : mode;
        resourceLimits = resourceLimits == null ? PartialResources.EMPTY : resourceLimits;
    }
}
