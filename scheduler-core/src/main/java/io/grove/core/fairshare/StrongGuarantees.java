package io.grove.core.fairshare;

import io.grove.core.pool.PartialResources;
import io.grove.core.resource.ResourceType;
import io.grove.core.resource.Resources;
import java.util.List;
import java.util.Map;

/**
 * Strong guarantees (see docs/fair-share.md#the-steps): inference of unset resources from the main resource,
 * overcommit alerts and scaling at the root, and the top-down adjustment to limits and parents.
 */
final class StrongGuarantees {

    private StrongGuarantees() {
    }

    /** Top-down: explicit values as configured, unset ones proportional to the main resource. */
    static void infer(CompositeElement root, UpdateContext context) {
        root.inferredStrongGuarantee = context.total.clone();
        inferChildren(root, context);
    }

    private static void inferChildren(CompositeElement pool, UpdateContext context) {
        double[] totalExplicit = Vec.zero();
        // Operations never have a strong guarantee.
        List<CompositeElement> pools = pool.childPools;
        for (CompositeElement childPool : pools) {
            childPool.inferredStrongGuarantee = explicit(childPool).toArray(0);
            Vec.addTo(totalExplicit, childPool.inferredStrongGuarantee);
        }
        double[] parentGuarantee = pool.inferredStrongGuarantee;
        double[] residual = Vec.clampNonNegative(Vec.minus(parentGuarantee, totalExplicit));
        int main = context.mainResource.ordinal();
        double parentMain = parentGuarantee[main];
        int count = pools.size();
        for (int r = 0; r < Vec.N; r++) {
            if (r == main) {
                continue;
            }
            ResourceType type = ResourceType.at(r);
            double[] implicit = new double[count];
            boolean[] isImplicit = new boolean[count];
            double totalImplicit = 0;
            for (int i = 0; i < count; i++) {
                Element child = pools.get(i);
                if (explicit(child).isSet(type)) {
                    continue;
                }
                double childMain = child.inferredStrongGuarantee[main];
                double ratio = parentMain > 0 ? childMain / parentMain : 0.0;
                implicit[i] = ratio * parentGuarantee[r];
                isImplicit[i] = true;
                totalImplicit += implicit[i];
            }
            if (!pool.isRoot() && totalImplicit > residual[r]) {
                double scale = residual[r] / totalImplicit;
                for (int i = 0; i < count; i++) {
                    implicit[i] *= scale;
                }
            }
            for (int i = 0; i < count; i++) {
                if (isImplicit[i]) {
                    pools.get(i).inferredStrongGuarantee[r] = implicit[i];
                }
            }
        }
        for (CompositeElement childPool : pools) {
            inferChildren(childPool, context);
        }
    }

    private static PartialResources explicit(Element element) {
        if (element instanceof CompositeElement pool && pool.config != null) {
            return pool.config.strongGuaranteeResources();
        }
        return PartialResources.EMPTY;
    }

    /**
     * Raises the overcommit alerts and, when strong plus burst guarantees exceed the total, scales
     * the root's guarantee and every burst ratio by one common factor; then adjusts top-down.
     */
    static void validateAndAdjust(CompositeElement root, UpdateContext context) {
        double[] totalFlow = Vec.times(context.total, root.totalResourceFlowRatio);
        double[] totalBurst = Vec.times(context.total, root.totalBurstRatio);
        double[] totalStrong = Vec.zero();
        for (Element child : root.children) {
            Vec.addTo(totalStrong, child.inferredStrongGuarantee);
        }
        if (!Vec.dominates(context.total, Vec.plus(totalStrong, totalFlow))) {
            context.alerts.add(new Alert(AlertCode.POOL_TREE_GUARANTEES_OVERCOMMIT,
                    "Strong guarantees and resource flows exceed total cluster resources",
                    Map.of("total_strong_guarantee_resources", Resources.of(totalStrong).toString(),
                            "total_resource_flow", Resources.of(totalFlow).toString(),
                            "total_cluster_resources", Resources.of(context.total).toString())));
        }
        if (!Vec.dominates(context.total, Vec.plus(totalStrong, totalBurst))) {
            context.alerts.add(new Alert(AlertCode.POOL_TREE_GUARANTEES_OVERCOMMIT,
                    "Strong guarantees and burst guarantees exceed total cluster resources",
                    Map.of("total_strong_guarantee_resources", Resources.of(totalStrong).toString(),
                            "total_burst_resources", Resources.of(totalBurst).toString(),
                            "total_cluster_resources", Resources.of(context.total).toString())));
            double factor = Bisection.maxSatisfying(0.0, 1.0, f -> {
                double[] sum = Vec.times(root.strongGuaranteeShare, f);
                for (CompositeElement pool : context.burstPools) {
                    Vec.addTo(sum, Vec.filled(pool.burstRatio * f));
                }
                return Vec.dominates(Vec.filled(1.0), sum);
            });
            root.strongGuaranteeShare = Vec.times(root.strongGuaranteeShare, factor);
            for (CompositeElement pool : context.burstPools) {
                pool.burstRatio *= factor;
            }
        }
        adjust(root);
    }

    /** Caps a pool's guarantee by its limits, then scales its children's to fit into it. */
    private static void adjust(CompositeElement pool) {
        pool.strongGuaranteeShare = Vec.min(pool.strongGuaranteeShare, pool.limitsShare);
        // Operations have no strong guarantee: only the child pools' guarantees are summed and scaled.
        double[] childrenSum = Vec.zero();
        for (CompositeElement child : pool.childPools) {
            Vec.addTo(childrenSum, child.strongGuaranteeShare);
        }
        double[] available = Vec.clampNonNegative(pool.strongGuaranteeShare);
        if (!Vec.dominates(available, childrenSum)) {
            double factor = Bisection.maxSatisfying(0.0, 1.0, f -> Vec.dominates(available, Vec.times(childrenSum, f)));
            for (CompositeElement child : pool.childPools) {
                child.strongGuaranteeShare = Vec.times(child.strongGuaranteeShare, factor);
            }
        }
        for (CompositeElement childPool : pool.childPools) {
            adjust(childPool);
        }
    }
}
