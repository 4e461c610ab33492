package io.grove.core.fairshare;

import io.grove.core.pool.IntegralGuaranteeType;
import io.grove.core.resource.Resources;
import java.util.LinkedHashMap;
import java.util.List;

/** Turns the working elements into the immutable {@link FairShareResult}. */
final class ResultBuilder {

    /** Satisfaction of an element that is due nothing. */
    static final double INFINITE_SATISFACTION = 1e9;

    private ResultBuilder() {
    }

    static FairShareResult build(CompositeElement root, DetailedFairShare rootShare, UpdateContext context) {
        List<Element> all = FairShareUpdate.preorder(root);
        LinkedHashMap<String, ElementShares> elements = new LinkedHashMap<>(all.size() * 4 / 3 + 1);
        LinkedHashMap<String, IntegralState> state = new LinkedHashMap<>();
        for (Element element : all) {
            IntegralAttributes integral = null;
            if (element instanceof CompositeElement pool && pool.integralType() != IntegralGuaranteeType.NONE) {
                integral = integralAttributes(pool, context);
                state.put(pool.id, new IntegralState(Resources.of(pool.accumulatedVolume), pool.lastShareRatio));
            }
            double[] fairShare = element.fairShare == null ? Vec.zero() : element.fairShare;
            elements.put(element.id, new ElementShares(
                    element.id,
                    element.kind(),
                    element.parent == null ? null : element.parent.id,
                    element.weight(),
                    Vec.toShare(element.demandShare),
                    Vec.toShare(element.usageShare),
                    Vec.toShare(element.limitsShare),
                    Vec.toShare(element.strongGuaranteeShare),
                    Vec.toShare(element.proposedIntegralShare),
                    element == root ? rootShare : element.detailed(element.fairShare),
                    element.promisedGuaranteeFairShare == null ? null : element.detailed(element.promisedGuaranteeFairShare),
                    localSatisfaction(fairShare, element.usageShare, element.demandShare),
                    element.fifoIndex,
                    integral));
        }
        return FairShareResult.owning(context.alerts, elements, state);
    }

    private static IntegralAttributes integralAttributes(CompositeElement pool, UpdateContext context) {
        double ratioVolume = Vec.minRatio(pool.accumulatedVolume, context.total);
        Double burstDuration = null;
        if (pool.integralType() == IntegralGuaranteeType.BURST && pool.burstRatio > pool.resourceFlowRatio) {
            burstDuration = ratioVolume / (pool.burstRatio - pool.resourceFlowRatio);
        }
        return new IntegralAttributes(
                pool.integralType(),
                Resources.of(pool.accumulatedVolume),
                ratioVolume,
                Resources.of(IntegralVolumes.capacity(pool, context)),
                pool.specifiedBurstRatio,
                pool.resourceFlowRatio,
                pool.totalBurstRatio,
                pool.totalResourceFlowRatio,
                burstDuration);
    }

    /**
     * Local satisfaction (reference §2.8): infinite when nothing is due; above 1 when usage exceeds
     * the fair share somewhere; otherwise usage over fair share on the resources that still lack.
     */
    static double localSatisfaction(double[] fairShare, double[] usage, double[] demand) {
        if (Vec.dominates(Vec.filled(Element.EPSILON), fairShare)) {
            return INFINITE_SATISFACTION;
        }
        boolean over = false;
        for (int r = 0; r < Vec.N; r++) {
            if (usage[r] > fairShare[r]) {
                over = true;
                break;
            }
        }
        if (over) {
            double max = 0;
            for (int r = 0; r < Vec.N; r++) {
                double ratio = fairShare[r] == 0 ? (usage[r] == 0 ? 0 : INFINITE_SATISFACTION) : usage[r] / fairShare[r];
                max = Math.max(max, ratio);
            }
            return Math.min(max, INFINITE_SATISFACTION);
        }
        boolean allBlocked = true;
        for (int r = 0; r < Vec.N; r++) {
            if (fairShare[r] < demand[r] - Element.EPSILON) {
                allBlocked = false;
                break;
            }
        }
        if (allBlocked) {
            double min = Double.POSITIVE_INFINITY;
            for (int r = 0; r < Vec.N; r++) {
                double ratio = fairShare[r] == 0 ? 1.0 : usage[r] / fairShare[r];
                min = Math.min(min, ratio);
            }
            return min;
        }
        double max = 0;
        for (int r = 0; r < Vec.N; r++) {
            boolean blocked = fairShare[r] >= demand[r] - Element.EPSILON;
            if (!blocked && fairShare[r] != 0) {
                max = Math.max(max, usage[r] / fairShare[r]);
            }
        }
        return max;
    }
}
