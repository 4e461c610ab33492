package io.grove.core.fairshare;

import java.util.ArrayList;
import java.util.List;

/**
 * Turning volumes into integral shares (see docs/fair-share.md#the-steps): burst pools first, each up to its burst
 * guarantee; then relaxed pools share what strong and burst guarantees leave, in proportion to
 * their volumes.
 */
final class IntegralShares {

    private IntegralShares() {
    }

    /** Tree share per second the pool's volume can sustain over the smooth period. */
    static double ratioByVolume(CompositeElement pool, UpdateContext context) {
        return Vec.minRatio(pool.accumulatedVolume, context.total) / context.smoothPeriodSeconds;
    }

    static void updateBurstPools(UpdateContext context) {
        for (CompositeElement pool : context.burstPools) {
            double integralRatio = Math.min(pool.burstRatio, ratioByVolume(pool, context));
            double[] proposed = Vec.min(Vec.filled(integralRatio), hierarchicalAvailableLimits(pool));
            proposed = adjustProposedIntegralShare(pool.limitsShare, pool.strongGuaranteeShare, proposed);
            pool.proposedIntegralShare = proposed;
            pool.prepareFairShareFunctions(context);
            pool.proposedIntegralShare = Vec.zero();
            double[] withinGuarantees = context.dims.unpack(pool.fairShareBySuggestion.valueAt(0.0));
            double[] integralShare = Vec.clampNonNegative(Vec.minus(withinGuarantees, pool.strongGuaranteeShare));
            increaseHierarchicalIntegralShare(pool, integralShare);
            pool.resetFairShareFunctions();
            pool.lastShareRatio = Vec.maxComponent(integralShare);
        }
    }

    static void updateRelaxedPools(CompositeElement root, UpdateContext context) {
        if (context.relaxedPools.isEmpty()) {
            return;
        }
        double[] available = Vec.filled(1.0);
        for (Element child : root.children) {
            available = Vec.minus(available, Vec.min(child.guaranteeShare(), child.demandShare));
        }
        final double[] availableShare = Vec.clampNonNegative(available);

        List<CompositeElement> pools = new ArrayList<>();
        List<Double> weights = new ArrayList<>();
        List<double[]> originalLimits = new ArrayList<>();
        for (CompositeElement pool : context.relaxedPools) {
            double ratio = ratioByVolume(pool, context);
            if (ratio == 0) {
                pool.lastShareRatio = 0;
                continue;
            }
            pools.add(pool);
            weights.add(ratio);
            originalLimits.add(pool.limitsShare);
            double cap = Math.min(ratio, pool.resourceFlowRatio * pool.relaxedShareMultiplierLimit(context));
            pool.limitsShare = Vec.min(pool.limitsShare, Vec.plus(Vec.filled(cap), pool.strongGuaranteeShare));
            pool.prepareFairShareFunctions(context);
        }
        if (pools.isEmpty()) {
            return;
        }
        double minWeight = weights.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
        double[] relativeWeights = weights.stream().mapToDouble(w -> w / minWeight).toArray();
        double fitFactor = Bisection.maxSatisfying(0.0, 1.0, f -> {
            double[] sum = Vec.zero();
            for (int i = 0; i < pools.size(); i++) {
                CompositeElement pool = pools.get(i);
                double[] share = context.dims.unpack(pool.fairShareBySuggestion.valueAt(Math.min(1.0, f * relativeWeights[i])));
                Vec.addTo(sum, Vec.clampNonNegative(Vec.minus(share, pool.strongGuaranteeShare)));
            }
            return Vec.dominates(availableShare, sum);
        });
        for (int i = 0; i < pools.size(); i++) {
            CompositeElement pool = pools.get(i);
            double suggestion = Math.min(1.0, fitFactor * relativeWeights[i]);
            double[] withinGuarantees = context.dims.unpack(pool.fairShareBySuggestion.valueAt(suggestion));
            double[] integralShare = Vec.clampNonNegative(Vec.minus(withinGuarantees, pool.strongGuaranteeShare));
            pool.limitsShare = originalLimits.get(i);
            double[] limited = Vec.min(integralShare, hierarchicalAvailableLimits(pool));
            increaseHierarchicalIntegralShare(pool, limited);
            pool.resetFairShareFunctions();
            pool.lastShareRatio = Vec.maxComponent(limited);
        }
    }

    /** Room left under the limits of the element and its ancestors (the root excluded). */
    private static double[] hierarchicalAvailableLimits(Element element) {
        double[] result = Vec.filled(1.0);
        for (Element current = element; !current.isRoot(); current = current.parent) {
            result = Vec.min(result, Vec.minus(current.limitsShare, current.guaranteeShare()));
        }
        return Vec.clampNonNegative(result);
    }

    private static void increaseHierarchicalIntegralShare(Element element, double[] delta) {
        for (Element current = element; current != null; current = current.parent) {
            double[] increased = Vec.plus(current.proposedIntegralShare, delta);
            if (!current.isRoot()) {
                increased = adjustProposedIntegralShare(current.limitsShare, current.strongGuaranteeShare, increased);
            }
            current.proposedIntegralShare = increased;
        }
    }

    /** Keeps strong plus integral share within the limits, to the last bit. */
    static double[] adjustProposedIntegralShare(double[] limits, double[] strong, double[] proposed) {
        if (Vec.dominates(limits, Vec.plus(strong, proposed))) {
            return proposed;
        }
        double[] adjusted = Vec.clampNonNegative(Vec.minus(limits, strong));
        for (int r = 0; r < Vec.N; r++) {
            for (int i = 0; i < 32 && limits[r] < strong[r] + adjusted[r]; i++) {
                adjusted[r] = Math.nextDown(adjusted[r]);
            }
        }
        return Vec.min(adjusted, proposed);
    }
}
