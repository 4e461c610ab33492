package io.grove.core.fairshare;

/**
 * {@code infer_weight_from_guarantees_share_multiplier}: a pool that sets no weight weighs
 * {@code multiplier × g(pool) / g(parent)}, {@code g} being the largest component of its strong
 * guarantee share plus its subtree's flow ratio; 1 where either is (nearly) zero. Computed once the
 * guarantees are adjusted, before any fair-share function is built.
 */
final class GuaranteeWeights {

    private static final double RATIO_PRECISION = 1e-9;

    private GuaranteeWeights() {
    }

    static void infer(CompositeElement pool, double multiplier) {
        double own = guaranteeDominantShare(pool);
        for (CompositeElement child : pool.childPools) {
            if (child.config.weight() == null) {
                double childShare = guaranteeDominantShare(child);
                child.inferredWeight = childShare < RATIO_PRECISION || own < RATIO_PRECISION ? 1.0
                        : multiplier * childShare / own;
            }
            infer(child, multiplier);
        }
    }

    private static double guaranteeDominantShare(CompositeElement pool) {
        return Vec.maxComponent(pool.strongGuaranteeShare) + pool.totalResourceFlowRatio;
    }
}
