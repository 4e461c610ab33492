package io.grove.core.fairshare;

import io.grove.core.resource.Resources;

/**
 * The persistent state of an integral pool between updates.
 *
 * @param accumulatedVolume the bucket, in resource-seconds (cpu·s, bytes·s, ...)
 * @param lastShareRatio the integral share granted at the previous update (a scalar ratio)
 */
public record IntegralState(Resources accumulatedVolume, double lastShareRatio) {

    public static final IntegralState EMPTY = new IntegralState(Resources.ZERO, 0.0);

    public IntegralState {
        if (Double.isNaN(lastShareRatio) || lastShareRatio < 0) {
            throw new IllegalArgumentException("last_share_ratio must be non-negative, got " + lastShareRatio);
        }
    }
}
