package io.grove.core.fairshare;

import io.grove.core.resource.ShareVector;

/**
 * A fair share split by where it comes from: the strong guarantee, the integral guarantee, and the
 * weight-proportional rest. The parts add up to {@code total}.
 */
public record DetailedFairShare(
        ShareVector strongGuarantee,
        ShareVector integralGuarantee,
        ShareVector weightProportional,
        ShareVector total) {

    public static final DetailedFairShare ZERO =
            new DetailedFairShare(ShareVector.ZERO, ShareVector.ZERO, ShareVector.ZERO, ShareVector.ZERO);

    /** Splits {@code total}: strong part first, then integral, then the rest. */
    static DetailedFairShare split(double[] total, double[] strongGuarantee, double[] proposedIntegral) {
        double[] strong = Vec.min(total, strongGuarantee);
        double[] integral = Vec.min(Vec.minus(total, strong), proposedIntegral);
        double[] weight = Vec.minus(Vec.minus(total, strong), integral);
        return new DetailedFairShare(Vec.toShare(strong), Vec.toShare(integral), Vec.toShare(weight), Vec.toShare(total));
    }
}
