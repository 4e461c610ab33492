package io.grove.server.http;

import io.grove.api.PoolTreeView;
import io.grove.api.PoolView;
import io.grove.core.cluster.Cluster;
import io.grove.core.fairshare.ElementKind;
import io.grove.core.fairshare.ElementShares;
import io.grove.core.node.Node;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.http.ApiException;
import io.grove.http.Routes;
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
        routes.get("/api/v1/pool_trees", (request, params) -> read(this::trees))
                .get("/api/v1/pool_trees/{tree}/pools", (request, params) -> read(cluster -> pools(cluster, params.get("tree"))))
                .get("/api/v1/pool_trees/{tree}/pools/{pool}",
                        (request, params) -> read(cluster -> pool(cluster, params.get("tree"), params.get("pool"))));
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

    private PoolView pool(Cluster cluster, String tree, String name) {
        ElementShares element = result(cluster, tree).elements().get(name);
        if (element == null || element.kind() == ElementKind.OPERATION) {
            throw new ApiException(404, "NO_SUCH_POOL", "no pool " + name + " in tree " + tree,
                    Map.of("pool", name, "pool_tree", tree));
        }
        return views.pool(cluster, tree, element);
    }
}
