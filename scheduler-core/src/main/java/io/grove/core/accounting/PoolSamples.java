package io.grove.core.accounting;

import io.grove.core.cluster.Cluster;
import io.grove.core.cluster.ClusterView;
import io.grove.core.fairshare.ElementKind;
import io.grove.core.fairshare.ElementShares;
import io.grove.core.node.Node;
import io.grove.core.operation.TreePools;
import io.grove.core.pool.IntegralGuaranteesConfig;
import io.grove.core.pool.PartialResources;
import io.grove.core.pool.PoolConfig;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.resource.ResourceType;
import io.grove.core.resource.Resources;
import java.util.ArrayList;
import java.util.List;

/**
 * Every pool of a tree as metering samples it: its fair share (its share of the tree's online
 * resources, in the resources' units) and what its configuration promises it (strong guarantee,
 * integral resource flow and burst guarantee); the root is promised what the pools right below it
 * are. What pools used is not sampled: it comes from their jobs' exact intervals ({@link JobHours}).
 */
public final class PoolSamples {

    private PoolSamples() {
    }

    public static List<PoolSample> of(ClusterView cluster, String tree) {
        Resources total = Resources.ZERO;
        for (Node node : cluster.nodes()) {
            if (node.state() == Node.State.ONLINE && tree.equals(node.tree())) {
                total = total.plus(node.limits());
            }
        }
        TreePools pools = cluster.registry().pools(tree);
        List<PoolSample> samples = new ArrayList<>();
        PoolSample root = null;
        for (ElementShares element : cluster.elements(tree)) {
            if (element.kind() == ElementKind.OPERATION) {
                continue;
            }
            PoolSample sample = PoolSample.empty(element.id());
            PoolConfig config = pools != null && pools.contains(element.id()) ? pools.configOf(element.id()) : null;
            IntegralGuaranteesConfig integral = config == null ? null : config.integralGuarantees();
            for (ResourceType r : ResourceType.values()) {
                int i = r.ordinal();
                sample.amounts()[MeterKind.FAIR_SHARE.ordinal()][i] = element.fairShare().total().get(r) * total.get(r);
                sample.amounts()[MeterKind.STRONG_GUARANTEE.ordinal()][i] =
                        configured(config == null ? null : config.strongGuaranteeResources(), r);
                sample.amounts()[MeterKind.RESOURCE_FLOW.ordinal()][i] =
                        configured(integral == null ? null : integral.resourceFlow(), r);
                sample.amounts()[MeterKind.BURST_GUARANTEE.ordinal()][i] =
                        configured(integral == null ? null : integral.burstGuaranteeResources(), r);
            }
            if (element.kind() == ElementKind.ROOT) {
                root = sample;
            }
            samples.add(sample);
        }
        if (root != null) {
            promisedByTopLevel(root, cluster.elements(tree), samples);
        }
        return samples;
    }

    /** The root is promised what the pools right below it are: a tree's guarantees are theirs. */
    private static void promisedByTopLevel(PoolSample root, List<ElementShares> elements, List<PoolSample> samples) {
        int at = 0;
        for (ElementShares element : elements) {
            if (element.kind() == ElementKind.OPERATION) {
                continue;
            }
            PoolSample sample = samples.get(at++);
            if (PoolTreeConfig.ROOT.equals(element.parent())) {
                for (MeterKind kind : List.of(MeterKind.STRONG_GUARANTEE, MeterKind.RESOURCE_FLOW, MeterKind.BURST_GUARANTEE)) {
                    for (int r = 0; r < ResourceType.COUNT; r++) {
                        root.amounts()[kind.ordinal()][r] += sample.amounts()[kind.ordinal()][r];
                    }
                }
            }
        }
    }

    private static double configured(PartialResources resources, ResourceType r) {
        return resources == null ? 0 : resources.get(r, 0);
    }
}
