package io.grove.core.fairshare;

import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.resource.Resources;
import java.util.List;
import java.util.Map;

/**
 * Everything one fair-share update of one tree depends on.
 *
 * @param tree the tree's configuration (validated)
 * @param totalResources the sum of the limits of the tree's nodes
 * @param operations the operations with their demand and usage, in registration order
 * @param integralState volumes of integral pools after the previous update, by pool name
 * @param elapsedSeconds time since the previous update, or {@code null} for the first update
 *     (then volumes are neither refilled nor consumed)
 * @param poolResourceCaps by pool name, the resources of the nodes a pool's
 *     {@code scheduling_tag_filter} matches: its limits go no higher
 * @param historicUsage by element id, the usage averages of the previous update (pools with
 *     {@code infer_children_weights_from_historic_usage}); see {@link FairShareResult#historicUsage()}
 */
public record FairShareInput(
        PoolTreeConfig tree,
        Resources totalResources,
        List<OperationDemand> operations,
        Map<String, IntegralState> integralState,
        Double elapsedSeconds,
        Map<String, Resources> poolResourceCaps,
        Map<String, Double> historicUsage) {

    public FairShareInput {
        operations = List.copyOf(operations);
        integralState = Map.copyOf(integralState == null ? Map.of() : integralState);
        poolResourceCaps = Map.copyOf(poolResourceCaps == null ? Map.of() : poolResourceCaps);
        historicUsage = Map.copyOf(historicUsage == null ? Map.of() : historicUsage);
        if (elapsedSeconds != null && (elapsedSeconds.isNaN() || elapsedSeconds < 0)) {
            throw new IllegalArgumentException("elapsed_seconds must be non-negative, got " + elapsedSeconds);
        }
    }

    /** An input without pools capped by tag filters. */
    public FairShareInput(PoolTreeConfig tree, Resources totalResources, List<OperationDemand> operations,
            Map<String, IntegralState> integralState, Double elapsedSeconds) {
        this(tree, totalResources, operations, integralState, elapsedSeconds, Map.of(), Map.of());
    }

    /** The same input with other integral state, e.g. the previous result's, to chain updates. */
    public FairShareInput withIntegralState(Map<String, IntegralState> state) {
        return new FairShareInput(tree, totalResources, operations, state, elapsedSeconds, poolResourceCaps,
                historicUsage);
    }
}
