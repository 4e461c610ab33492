package io.grove.server.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.grove.core.cluster.Cluster;
import io.grove.core.node.Node;
import io.grove.http.Routes;

/** The nodes and their state. */
final class NodeRoutes extends ApiResource {

    NodeRoutes(Parts parts) {
        super(parts);
    }

    @Override
    void addTo(Routes.Builder routes) {
        routes.get("/api/v1/nodes", (request, params) -> read(this::nodes));
    }

    private JsonNode nodes(Cluster cluster) {
        ArrayNode list = json.createArrayNode();
        for (Node node : cluster.nodes()) {
            list.add(views.node(node));
        }
        return list;
    }
}
