package io.grove.core.pool;

import java.time.Duration;

/**
 * Tree-level {@code integral_guarantees} settings (see docs/fair-share.md#the-steps).
 *
 * @param smoothPeriod a burst or relaxed pool gets at most its volume divided by this per update
 * @param poolCapacitySaturationPeriod capacity of a bucket is its flow times this period
 * @param relaxedShareMultiplierLimit default cap of relaxed shares as a multiple of the flow ratio
 * @param shouldDistributeFreeVolumeAmongChildren default for redistributing overflowed volume
 */
public record IntegralGuaranteesSettings(
        Duration smoothPeriod,
        Duration poolCapacitySaturationPeriod,
        double relaxedShareMultiplierLimit,
        boolean shouldDistributeFreeVolumeAmongChildren) {

    public static final IntegralGuaranteesSettings DEFAULT =
            new IntegralGuaranteesSettings(Duration.ofMinutes(1), Duration.ofDays(1), 3.0, false);
}
