package io.grove.core.fairshare;

import io.grove.core.pool.IntegralGuaranteeType;
import io.grove.core.resource.Resources;
import io.grove.core.resource.ShareVector;
import java.util.LinkedHashMap;
import java.util.List;

/** Turns the working elements into the immutable {@link FairShareResult}. */
final class ResultBuilder {

    private ResultBuilder() {
    }

    /**
     * Builds the result. Pools' shares are made now; operations' when asked for (there are many).
     * The elements let go of their functions so that the result holds only numbers.
     */
    static FairShareResult build(CompositeElement root, DetailedFairShare rootShare, UpdateContext context) {
        List<Element> all = FairShareUpdate.preorder(root);
        Element[] elements = all.toArray(new Element[0]);
        ElementShares[] fixed = new ElementShares[elements.length];
        LinkedHashMap<String, IntegralState> state = new LinkedHashMap<>();
        for (int i = 0; i < elements.length; i++) {
            Element element = elements[i];
            element.releaseFunctions();
            if (element instanceof CompositeElement pool) {
                IntegralAttributes integral = null;
                if (pool.integralType() != IntegralGuaranteeType.NONE) {
                    integral = integralAttributes(pool, context);
                    state.put(pool.id, new IntegralState(Resources.of(pool.accumulatedVolume), pool.lastShareRatio));
                } else if (pool.isIntegralParent()) {
                    // A parent of integral pools: no bucket of its own, its subtree's ratios.
                    integral = integralAttributes(pool, context);
                }
                fixed[i] = shares(element, element == root ? rootShare : element.detailed(element.fairShare), integral);
            }
        }
        return new FairShareResult(context.alerts, elements, fixed, state, context.historicUsageOut);
    }

    /** The shares of an operation. */
    static ElementShares shares(Element element) {
        return shares(element, detailed(element, element.fairShare), null);
    }

    private static ElementShares shares(Element element, DetailedFairShare fairShare, IntegralAttributes integral) {
        return new ElementShares(
                element.id,
                element.kind(),
                element.parent == null ? null : element.parent.id,
                element.weight(),
                share(element.demandShare),
                share(element.usageShare),
                share(element.limitsShare),
                share(element.strongGuaranteeShare),
                share(element.proposedIntegralShare),
                fairShare,
                element.promisedGuaranteeFairShare == null ? null : detailed(element, element.promisedGuaranteeFairShare),
                Satisfaction.local(element.fairShare == null ? Vec.ZERO : element.fairShare, element.usageShare,
                        element.demandShare),
                element.fifoIndex,
                integral);
    }

    /** An operation's fair share is all weight-proportional: it has no guarantees of its own. */
    private static DetailedFairShare detailed(Element element, double[] total) {
        if (element instanceof OperationElement) {
            ShareVector share = share(total == null ? Vec.ZERO : total);
            return new DetailedFairShare(ShareVector.ZERO, ShareVector.ZERO, share, share);
        }
        return element.detailed(total);
    }

    private static ShareVector share(double[] values) {
        return values == Vec.ZERO ? ShareVector.ZERO : ShareVector.of(values);
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
}
