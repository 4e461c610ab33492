package io.grove.server.http;

import io.grove.api.NodeView;
import io.grove.core.cluster.Cluster;
import io.grove.core.cluster.ClusterView;
import io.grove.core.cluster.TopologyIndex;
import io.grove.core.node.Node;
import io.grove.http.Routes;
import java.util.ArrayList;
import java.util.List;

/** The nodes and their state. */
final class NodeRoutes extends ApiResource {

    NodeRoutes(Parts parts) {
        super(parts);
    }

    @Override
    void addTo(Routes.Builder routes) {
        routes.get("/api/v1/nodes", (request, params) -> read(request, this::nodes))
                .doc(Routes.Doc.listOf("the nodes", NodeView.class));
    }

    private List<NodeView> nodes(ClusterView cluster) {
        List<NodeView> list = new ArrayList<>();
        for (Node node : cluster.nodes()) {
            TopologyIndex topology = node.tree() == null ? null : cluster.topology(node.tree());
            list.add(views.node(node, topology == null ? List.of() : topology.levels()));
        }
        return list;
    }
}
