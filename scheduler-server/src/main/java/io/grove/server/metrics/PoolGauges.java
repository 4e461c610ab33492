package io.grove.server.metrics;

import io.grove.core.cluster.Cluster;
import io.grove.core.cluster.ClusterView;
import io.grove.core.cluster.TopologyIndex;
import io.grove.core.fairshare.ElementKind;
import io.grove.core.fairshare.ElementShares;
import io.grove.core.node.Node;
import io.grove.core.operation.PoolOperationCounts;
import io.grove.core.operation.TreePools;
import io.grove.core.pool.PartialResources;
import io.grove.core.pool.PoolConfig;
import io.grove.core.resource.ResourceType;
import io.grove.core.resource.Resources;
import io.grove.core.resource.ShareVector;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The gauges of nodes and pools: a value table written after every fair-share update and read by
 * scrapes. A series written at one refresh and not at the next (a pool removed by a reload, an
 * ephemeral pool gone with its last operation) is removed from the registry, so the number of
 * series follows the pools that exist.
 */
final class PoolGauges {

    /** The states of {@code grove_pool_resource}, after YuniKorn's queue metrics. */
    private static final String[] RESOURCE_STATES = {"guarantee", "limit", "usage", "demand", "fair_share"};

    private final MeterRegistry registry;
    private final Map<String, Double> values = new ConcurrentHashMap<>();
    private final Map<String, Gauge> gauges = new HashMap<>();
    private Set<String> written = new HashSet<>();

    PoolGauges(MeterRegistry registry) {
        this.registry = registry;
    }

    void refresh(ClusterView cluster) {
        written = new HashSet<>();
        int online = 0;
        for (Node node : cluster.nodes()) {
            online += node.state() == Node.State.ONLINE ? 1 : 0;
        }
        set("grove.nodes", "nodes by state", online, "state", "online");
        set("grove.nodes", "nodes by state", cluster.nodes().size() - online, "state", "offline");
        for (String tree : cluster.treeNames()) {
            Resources total = Resources.ZERO;
            for (Node node : cluster.nodes()) {
                if (node.state() == Node.State.ONLINE && tree.equals(node.tree())) {
                    total = total.plus(node.limits());
                }
            }
            topology(cluster, tree);
            Map<String, ?> starving = cluster.starving(tree);
            TreePools pools = cluster.registry().pools(tree);
            for (ElementShares element : cluster.elements(tree)) {
                if (element.kind() != ElementKind.OPERATION) {
                    pool(cluster, tree, element, starving.containsKey(element.id()), total, pools);
                }
            }
        }
        for (Iterator<Map.Entry<String, Gauge>> it = gauges.entrySet().iterator(); it.hasNext();) {
            Map.Entry<String, Gauge> gauge = it.next();
            if (!written.contains(gauge.getKey())) {
                registry.remove(gauge.getValue());
                values.remove(gauge.getKey());
                it.remove();
            }
        }
    }

    /** Per level of the tree's topology: its domains, and the most of the tree's main resource free in one. */
    private void topology(ClusterView cluster, String tree) {
        TopologyIndex topology = cluster.topology(tree);
        ResourceType main = cluster.config().trees().get(tree).mainResource();
        for (String level : topology == null ? List.<String>of() : topology.levels()) {
            set("grove.topology.domains", "domains of a topology level", topology.domains(level).size(), "tree", tree,
                    "level", level);
            TopologyIndex.Domain largest = topology.largestFree(level, main);
            set("grove.topology.largest.free", "the most of the tree's main resource free in one domain of a level",
                    largest == null ? 0 : largest.free().get(main), "tree", tree, "level", level, "resource", main.key());
        }
    }

    private void pool(ClusterView cluster, String tree, ElementShares element, boolean starving, Resources total,
            TreePools pools) {
        String pool = element.id();
        set("grove.pool.fair.share.ratio", "fair share, dominant share of the tree", element.fairShare().total().max(),
                "tree", tree, "pool", pool);
        set("grove.pool.usage.ratio", "usage, dominant share of the tree", element.usageShare().max(), "tree", tree,
                "pool", pool);
        set("grove.pool.demand.ratio", "demand, dominant share of the tree", element.demandShare().max(), "tree", tree,
                "pool", pool);
        set("grove.pool.starving", "1 while the pool starves", starving ? 1 : 0, "tree", tree, "pool", pool);
        if (element.integral() != null) {
            set("grove.pool.accumulated.volume.ratio", "an integral pool's accumulated volume, in tree-seconds",
                    element.integral().accumulatedResourceRatioVolume(), "tree", tree, "pool", pool);
        }
        PoolOperationCounts counts = cluster.registry().counts(tree).counts(pool);
        set("grove.pool.operations", "operations by state", counts.runningOperationCount()
                + counts.lightweightRunningOperationCount(), "tree", tree, "pool", pool, "state", "running");
        set("grove.pool.operations", "operations by state", counts.pendingOperationCount(), "tree", tree, "pool", pool,
                "state", "pending");
        PoolConfig config = pools != null && pools.contains(pool) ? pools.configOf(pool) : null;
        for (ResourceType r : ResourceType.values()) {
            double all = total.get(r);
            if (all <= 0) {
                continue;
            }
            double[] amounts = {
                configured(config == null ? null : config.strongGuaranteeResources(), r),
                configured(config == null ? null : config.resourceLimits(), r),
                absolute(element.usageShare(), r, all),
                absolute(element.demandShare(), r, all),
                absolute(element.fairShare().total(), r, all)};
            for (int s = 0; s < RESOURCE_STATES.length; s++) {
                if (!Double.isNaN(amounts[s])) {
                    set("grove.pool.resource", "a pool's resources by state, in the resource's units", amounts[s], "tree",
                            tree, "pool", pool, "resource", r.key(), "state", RESOURCE_STATES[s]);
                }
            }
        }
    }

    private static double absolute(ShareVector share, ResourceType r, double total) {
        return share.get(r) * total;
    }

    /** A configured amount, or NaN when the pool does not set it (no series then). */
    private static double configured(PartialResources resources, ResourceType r) {
        return resources == null || !resources.isSet(r) ? Double.NaN : resources.get(r, Double.NaN);
    }

    private void set(String name, String description, double value, String... tags) {
        StringBuilder key = new StringBuilder(name);
        for (String tag : tags) {
            key.append('|').append(tag);
        }
        String k = key.toString();
        written.add(k);
        if (values.put(k, value) == null && !gauges.containsKey(k)) {
            gauges.put(k, Gauge.builder(name, values, v -> v.getOrDefault(k, Double.NaN)).description(description)
                    .tags(tags).register(registry));
        }
    }
}
