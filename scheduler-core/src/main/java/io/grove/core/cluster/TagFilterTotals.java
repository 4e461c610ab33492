package io.grove.core.cluster;

import io.grove.core.node.Node;
import io.grove.core.node.NodeFilter;
import io.grove.core.pool.PoolConfig;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.resource.ResourceType;
import io.grove.core.resource.Resources;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The resources of the online nodes of one tree that each {@code scheduling_tag_filter} matches:
 * what a pool or an operation with that filter can use at most, so its limits for the fair-share
 * update. Each distinct filter is evaluated once per update.
 */
final class TagFilterTotals {

    private final List<Node> nodes;
    private final Map<String, Resources> byFilter = new HashMap<>();

    TagFilterTotals(List<Node> onlineNodes) {
        this.nodes = onlineNodes;
    }

    /** The resources of the nodes the filter matches; {@code null} for no filter. */
    Resources matching(String filter) {
        if (filter == null || filter.isEmpty()) {
            return null;
        }
        return byFilter.computeIfAbsent(filter, text -> {
            NodeFilter parsed = NodeFilter.parse(text);
            double[] sum = new double[ResourceType.COUNT];
            for (Node node : nodes) {
                if (parsed.matches(node.tags())) {
                    double[] limits = node.limits().toArray();
                    for (int r = 0; r < sum.length; r++) {
                        sum[r] += limits[r];
                    }
                }
            }
            return Resources.of(sum);
        });
    }

    /** Limits lowered to what the filter's nodes have. */
    Resources cap(Resources limits, String filter) {
        Resources matching = matching(filter);
        if (matching == null) {
            return limits;
        }
        double[] capped = limits.toArray();
        double[] nodesHave = matching.toArray();
        for (int r = 0; r < capped.length; r++) {
            capped[r] = Math.min(capped[r], nodesHave[r]);
        }
        return Resources.of(capped);
    }

    /** By pool name, the matching resources of every pool of the tree with a filter. */
    Map<String, Resources> poolCaps(PoolTreeConfig tree) {
        Map<String, Resources> caps = new HashMap<>();
        for (PoolConfig pool : tree.pools()) {
            collect(pool, caps);
        }
        return caps;
    }

    private void collect(PoolConfig pool, Map<String, Resources> caps) {
        Resources matching = matching(pool.schedulingTagFilter());
        if (matching != null) {
            caps.put(pool.name(), matching);
        }
        for (PoolConfig child : pool.children()) {
            collect(child, caps);
        }
    }
}
