package io.grove.core.fairshare;

import io.grove.core.pool.IntegralGuaranteeType;
import io.grove.core.pool.SchedulingMode;
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
        Walk walk = new Walk(root, rootShare, context);
        walk.visit(root);
        return new FairShareResult(context.alerts, walk.elements, walk.fixed, walk.state, context.historicUsageOut);
    }

    /** One pass over the tree in pre-order: every element in its place, its functions let go, pools' shares made. */
    private static final class Walk {
        private final CompositeElement root;
        private final DetailedFairShare rootShare;
        private final UpdateContext context;
        final Element[] elements;
        final ElementShares[] fixed;
        final LinkedHashMap<String, IntegralState> state = new LinkedHashMap<>();
        private int next;

        Walk(CompositeElement root, DetailedFairShare rootShare, UpdateContext context) {
            this.root = root;
            this.rootShare = rootShare;
            this.context = context;
            this.elements = new Element[context.elementCount];
            this.fixed = new ElementShares[context.elementCount];
        }

        /**
         * Visits a pool and its subtree. A pool's children are its child pools, then its
         * operations (the update attaches every pool before any operation); the operations are put
         * in place without being read, as they let go of their functions when their pool copied
         * them, except under a FIFO pool.
         */
        void visit(CompositeElement pool) {
            int i = next++;
            elements[i] = pool;
            pool.releaseFunctions();
            fixed[i] = poolShares(pool);
            List<Element> children = pool.children;
            int pools = pool.childPools.size();
            for (int c = 0; c < pools; c++) {
                CompositeElement child = pool.childPools.get(c);
                if (children.get(c) != child) {
                    throw new IllegalStateException("pool " + pool.id + " has an operation before its child pool "
                            + child.id);
                }
                visit(child);
            }
            boolean fifo = pool.mode() == SchedulingMode.FIFO;
            for (int c = pools; c < children.size(); c++) {
                Element operation = children.get(c);
                if (fifo) {
                    operation.releaseFunctions();
                }
                elements[next++] = operation;
            }
        }

        private ElementShares poolShares(CompositeElement pool) {
            IntegralAttributes integral = null;
            if (pool.integralType() != IntegralGuaranteeType.NONE) {
                integral = integralAttributes(pool, context);
                state.put(pool.id, new IntegralState(Resources.of(pool.accumulatedVolume), pool.lastShareRatio));
            } else if (pool.isIntegralParent()) {
                // A parent of integral pools: no bucket of its own, its subtree's ratios.
                integral = integralAttributes(pool, context);
            }
            return shares(pool, pool == root ? rootShare : pool.detailed(pool.fairShare), integral);
        }
    }

    /** The shares of an operation. */
    static ElementShares shares(Element element) {
        double[] fairShare = element.regularFairShare();
        return shares(element, fairShare, detailed(element, fairShare), null);
    }

    private static ElementShares shares(Element element, DetailedFairShare fairShare, IntegralAttributes integral) {
        return shares(element, element.fairShare, fairShare, integral);
    }

    /** The shares of an element whose regular fair share is {@code total}, split as {@code fairShare}. */
    private static ElementShares shares(Element element, double[] total, DetailedFairShare fairShare,
            IntegralAttributes integral) {
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
                Satisfaction.local(total == null ? Vec.ZERO : total, element.usageShare,
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
