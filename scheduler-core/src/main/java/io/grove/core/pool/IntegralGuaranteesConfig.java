package io.grove.core.pool;

/**
 * A pool's {@code integral_guarantees}.
 *
 * @param guaranteeType none, burst or relaxed
 * @param resourceFlow accumulation rate (resource units per second, e.g. cores)
 * @param burstGuaranteeResources burst pools only: how much the pool may take while it has volume
 * @param relaxedShareMultiplierLimit relaxed pools: cap of the integral share as a multiple of the
 *     flow ratio; {@code null} takes the tree's value
 * @param canAcceptFreeVolume whether the pool takes overflowed volume of its siblings
 * @param shouldDistributeFreeVolumeAmongChildren {@code null} takes the tree's value
 */
public record IntegralGuaranteesConfig(
        IntegralGuaranteeType guaranteeType,
        PartialResources resourceFlow,
        PartialResources burstGuaranteeResources,
        Double relaxedShareMultiplierLimit,
        boolean canAcceptFreeVolume,
        Boolean shouldDistributeFreeVolumeAmongChildren) {

    public static final IntegralGuaranteesConfig NONE = new IntegralGuaranteesConfig(
            IntegralGuaranteeType.NONE, PartialResources.EMPTY, PartialResources.EMPTY, null, true, null);

    public IntegralGuaranteesConfig {
        if (guaranteeType == null) {
            throw new IllegalArgumentException("guarantee_type must be set");
        }
        resourceFlow = resourceFlow == null ? PartialResources.EMPTY : resourceFlow;
        burstGuaranteeResources = burstGuaranteeResources == null ? PartialResources.EMPTY : burstGuaranteeResources;
    }

    public static IntegralGuaranteesConfig burst(PartialResources flow, PartialResources burst) {
        return new IntegralGuaranteesConfig(IntegralGuaranteeType.BURST, flow, burst, null, true, null);
    }

    public static IntegralGuaranteesConfig relaxed(PartialResources flow) {
        return new IntegralGuaranteesConfig(IntegralGuaranteeType.RELAXED, flow, PartialResources.EMPTY, null, true, null);
    }

    public boolean isIntegral() {
        return guaranteeType != IntegralGuaranteeType.NONE;
    }
}
