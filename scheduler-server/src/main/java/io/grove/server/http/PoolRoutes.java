package io.grove.server.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.grove.core.cluster.Cluster;
import io.grove.core.fairshare.ElementKind;
import io.grove.core.fairshare.ElementShares;
import io.grove.core.node.Node;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.http.ApiException;
import io.grove.http.Routes;
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

    private JsonNode trees(Cluster cluster) {
        ArrayNode list = json.createArrayNode();
        for (String tree : cluster.treeNames()) {
            PoolTreeConfig configured = config.current().trees().get(tree);
            ObjectNode node = list.addObject();
            node.put("name", tree);
            node.put("default", tree.equals(config.current().defaultTree()));
            node.put("nodes_filter", configured == null ? "" : configured.nodesFilter());
            node.put("default_parent_pool", configured == null ? null : configured.defaultParentPool());
            int nodes = 0;
            for (Node n : cluster.nodes()) {
                if (tree.equals(n.tree())) {
                    nodes++;
                }
            }
            node.put("nodes", nodes);
            node.put("pools", (int) cluster.elements(tree).stream().filter(e -> e.kind() == ElementKind.POOL).count());
            node.put("operations", cluster.registry().counts(tree).counts(PoolTreeConfig.ROOT).operationCount());
        }
        return list;
    }

    private JsonNode pools(Cluster cluster, String tree) {
        result(cluster, tree);
        ArrayNode list = json.createArrayNode();
        for (ElementShares element : cluster.elements(tree)) {
            if (element.kind() != ElementKind.OPERATION) {
                list.add(views.pool(cluster, tree, element));
            }
        }
        return list;
    }

    private JsonNode pool(Cluster cluster, String tree, String name) {
        ElementShares element = result(cluster, tree).elements().get(name);
        if (element == null || element.kind() == ElementKind.OPERATION) {
            throw new ApiException(404, "NO_SUCH_POOL", "no pool " + name + " in tree " + tree,
                    Map.of("pool", name, "pool_tree", tree));
        }
        return views.pool(cluster, tree, element);
    }
}
