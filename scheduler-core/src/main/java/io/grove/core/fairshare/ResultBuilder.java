package io.grove.core.fairshare;

import io.grove.core.pool.IntegralGuaranteeType;
import io.grove.core.resource.Resources;
import io.grove.core.resource.ShareVector;
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
        Shares shares = new Shares(context);
        for (Element element : all) {
            IntegralAttributes integral = null;
            if (element instanceof CompositeElement pool && pool.integralType() != IntegralGuaranteeType.NONE) {
                integral = integralAttributes(pool, context);
                state.put(pool.id, new IntegralState(Resources.of(pool.accumulatedVolume), pool.lastShareRatio));
            }
            elements.put(element.id, new ElementShares(
                    element.id,
                    element.kind(),
                    element.parent == null ? null : element.parent.id,
                    element.weight(),
                    shares.of(element.demandShare),
                    shares.of(element.usageShare),
                    shares.of(element.limitsShare),
                    shares.of(element.strongGuaranteeShare),
                    shares.of(element.proposedIntegralShare),
                    element == root ? rootShare : detailed(element, element.fairShare, shares),
                    element.promisedGuaranteeFairShare == null ? null
                            : detailed(element, element.promisedGuaranteeFairShare, shares),
                    localSatisfaction(element.fairShare == null ? Vec.ZERO : element.fairShare, element.usageShare,
                            element.demandShare),
                    element.fifoIndex,
                    integral));
        }
        return FairShareResult.owning(context.alerts, elements, state);
    }

    /** An operation's fair share is all weight-proportional: it has no guarantees of its own. */
    private static DetailedFairShare detailed(Element element, double[] total, Shares shares) {
        if (element instanceof OperationElement) {
            ShareVector share = shares.of(total == null ? Vec.ZERO : total);
            return new DetailedFairShare(ShareVector.ZERO, ShareVector.ZERO, share, share);
        }
        return element.detailed(total);
    }

    /** Share vectors for the result, reusing one object for the vectors that many elements share. */
    private static final class Shares {
        private final double[] whole;
        private final ShareVector wholeShare;

        Shares(UpdateContext context) {
            this.whole = context.wholeTreeShare;
            this.wholeShare = ShareVector.of(whole);
        }

        ShareVector of(double[] values) {
            if (values == Vec.ZERO) {
                return ShareVector.ZERO;
            }
            if (values == whole) {
                return wholeShare;
            }
            return ShareVector.of(values);
        }
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
