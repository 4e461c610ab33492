package io.grove.core.fairshare;

import io.grove.core.pool.IntegralGuaranteeType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The token buckets of integral pools (see docs/fair-share.md#the-steps): refill by the flow, consumption by the
 * previous integral share, capacity, and redistribution of overflow where enabled.
 */
final class IntegralVolumes {

    private IntegralVolumes() {
    }

    /** Refills and consumes every integral pool's bucket, then redistributes overflow. */
    static void consumeAndRefill(CompositeElement root, UpdateContext context) {
        for (CompositeElement pool : context.burstPools) {
            update(pool, context);
        }
        for (CompositeElement pool : context.relaxedPools) {
            update(pool, context);
        }
        updateOverflowAndAcceptable(root);
        distributeFreeVolume(root, context);
    }

    /** Capacity of a pool's bucket: total times flow ratio times the saturation period. */
    static double[] capacity(CompositeElement pool, UpdateContext context) {
        return Vec.times(context.total, pool.resourceFlowRatio * context.saturationPeriodSeconds);
    }

    private static void update(CompositeElement pool, UpdateContext context) {
        if (context.totalIsZero() || context.elapsedSeconds == null) {
            return;
        }
        double period = context.elapsedSeconds;
        double[] oldVolume = pool.accumulatedVolume;
        double[] capacity = capacity(pool, context);
        double[] perPeriod = Vec.times(context.total, period);
        double[] volume = Vec.plus(oldVolume, Vec.times(perPeriod, pool.resourceFlowRatio));
        volume = Vec.minus(volume, Vec.times(perPeriod, pool.lastShareRatio));
        volume = Vec.clampNonNegative(volume);
        // An over-full bucket never shrinks on its own: it only stops growing.
        double[] upper = Vec.max(oldVolume, capacity);
        pool.volumeOverflow = Vec.clampNonNegative(Vec.minus(volume, upper));
        if (pool.canAcceptFreeVolume()) {
            pool.acceptableVolume = Vec.clampNonNegative(Vec.minus(capacity, volume));
        }
        pool.accumulatedVolume = Vec.min(volume, upper);
    }

    /** Bottom-up through non-integral pools: what overflows and what could be accepted. */
    private static void updateOverflowAndAcceptable(CompositeElement pool) {
        if (pool.integralType() != IntegralGuaranteeType.NONE) {
            return;
        }
        double[] childrenAcceptable = Vec.zero();
        for (CompositeElement childPool : pool.childPools) {
            updateOverflowAndAcceptable(childPool);
            Vec.addTo(pool.childrenVolumeOverflow, childPool.volumeOverflow);
            Vec.addTo(childrenAcceptable, childPool.acceptableVolume);
        }
        boolean canAccept = pool.canAcceptFreeVolume();
        for (int r = 0; r < Vec.N; r++) {
            double diff = pool.childrenVolumeOverflow[r] - childrenAcceptable[r];
            if (diff > 0) {
                pool.volumeOverflow[r] = diff;
                pool.acceptableVolume[r] = 0;
            } else {
                pool.volumeOverflow[r] = 0;
                pool.acceptableVolume[r] = canAccept ? -diff : 0;
            }
        }
    }

    /** Top-down: distributing pools split free volume among hungry children by their flow. */
    private static void distributeFreeVolume(CompositeElement pool, UpdateContext context) {
        double[] free = pool.acceptedFreeVolume.clone();
        if (pool.integralType() != IntegralGuaranteeType.NONE) {
            if (!Vec.isZero(free)) {
                Vec.addTo(pool.accumulatedVolume, free);
            }
            return;
        }
        if (pool.shouldDistributeFreeVolumeAmongChildren(context)
                && !(Vec.isZero(free) && Vec.isZero(pool.childrenVolumeOverflow))) {
            Vec.addTo(free, pool.childrenVolumeOverflow);
            for (int r = 0; r < Vec.N; r++) {
                distributeResource(pool, free, r);
            }
        }
        for (CompositeElement childPool : pool.childPools) {
            distributeFreeVolume(childPool, context);
        }
    }

    /** Water-filling of one resource: children that take less than their part are filled first. */
    private static void distributeResource(CompositeElement pool, double[] free, int r) {
        if (free[r] == 0) {
            return;
        }
        List<CompositeElement> hungry = new ArrayList<>();
        double weightSum = 0;
        for (CompositeElement childPool : pool.childPools) {
            if (childPool.acceptableVolume[r] > Element.EPSILON
                    && childPool.totalResourceFlowRatio > Element.EPSILON) {
                hungry.add(childPool);
                weightSum += childPool.totalResourceFlowRatio;
            }
        }
        hungry.sort(Comparator.comparingDouble(c -> c.acceptableVolume[r] / c.totalResourceFlowRatio));
        int i = 0;
        for (; i < hungry.size(); i++) {
            CompositeElement child = hungry.get(i);
            double suggested = free[r] * (child.totalResourceFlowRatio / weightSum);
            if (suggested < child.acceptableVolume[r]) {
                break;
            }
            child.acceptedFreeVolume[r] = child.acceptableVolume[r];
            free[r] -= child.acceptableVolume[r];
            weightSum -= child.totalResourceFlowRatio;
        }
        for (; i < hungry.size(); i++) {
            CompositeElement child = hungry.get(i);
            child.acceptedFreeVolume[r] = free[r] * (child.totalResourceFlowRatio / weightSum);
        }
    }
}
