package io.grove.server.http;

import io.grove.api.PoolHistoryView;
import io.grove.api.PoolTreeView;
import io.grove.api.PoolView;
import io.grove.core.cluster.Cluster;
import io.grove.core.fairshare.ElementKind;
import io.grove.core.fairshare.ElementShares;
import io.grove.core.node.Node;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.http.ApiException;
import io.grove.http.Routes;
import io.grove.server.metrics.PoolHistory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The pool trees and their pools with their shares. */
final class PoolRoutes extends ApiResource {

    PoolRoutes(Parts parts) {
        super(parts);
    }

    @Override
    void addTo(Routes.Builder routes) {
        routes.get("/api/v1/pool_trees", (request, params) -> read(request, this::trees))
                .get("/api/v1/pool_trees/{tree}/pools", (request, params) -> read(request, cluster -> pools(cluster, params.get("tree"))))
                .get("/api/v1/pool_trees/{tree}/pools/{pool}",
                        (request, params) -> read(request, cluster -> pool(cluster, params.get("tree"), params.get("pool"))))
                .get("/api/v1/pool_trees/{tree}/pools/{pool}/history",
                        (request, params) -> read(request, cluster -> history(cluster, params.get("tree"), params.get("pool"))));
    }

    private List<PoolTreeView> trees(Cluster cluster) {
        List<PoolTreeView> list = new ArrayList<>();
        for (String tree : cluster.treeNames()) {
            PoolTreeConfig configured = config.current().trees().get(tree);
            int nodes = 0;
            for (Node n : cluster.nodes()) {
                if (tree.equals(n.tree())) {
                    nodes++;
                }
            }
            list.add(new PoolTreeView(tree, tree.equals(config.current().defaultTree()),
                    configured == null ? "" : configured.nodesFilter(),
                    configured == null ? null : configured.defaultParentPool(), nodes,
                    (int) cluster.elements(tree).stream().filter(e -> e.kind() == ElementKind.POOL).count(),
                    cluster.registry().counts(tree).counts(PoolTreeConfig.ROOT).operationCount()));
        }
        return list;
    }

    private List<PoolView> pools(Cluster cluster, String tree) {
        result(cluster, tree);
        List<PoolView> list = new ArrayList<>();
        for (ElementShares element : cluster.elements(tree)) {
            if (element.kind() != ElementKind.OPERATION) {
                list.add(views.pool(cluster, tree, element));
            }
        }
        return list;
    }

    private PoolHistoryView history(Cluster cluster, String tree, String name) {
        pool(cluster, tree, name);
        List<PoolHistoryView.Sample> samples = new ArrayList<>();
        for (PoolHistory.Sample sample : history.samples(tree, name)) {
            samples.add(new PoolHistoryView.Sample(sample.at().toString(), round(sample.fairShare()),
                    round(sample.usageShare()), round(sample.demandShare())));
        }
        return new PoolHistoryView(tree, name, PoolHistory.INTERVAL.toSeconds(), samples);
    }

    /** Four decimals: the samples are kept as floats. */
    private static double round(double share) {
        return Math.round(share * 1e4) / 1e4;
    }

    private PoolView pool(Cluster cluster, String tree, String name) {
        ElementShares element = result(cluster, tree).elements().get(name);
        if (element == null || element.kind() == ElementKind.OPERATION) {
            throw new ApiException(404, "NO_SUCH_POOL", "no pool " + name + " in tree " + tree,
                    Map.of("pool", name, "pool_tree", tree));
        }
        return views.pool(cluster, tree, element);
    }
}
