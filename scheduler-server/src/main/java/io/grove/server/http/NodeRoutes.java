package io.grove.server.http;

import io.grove.api.NodeView;
import io.grove.api.TopologyView;
import io.grove.core.cluster.Cluster;
import io.grove.core.cluster.ClusterView;
import io.grove.core.cluster.TopologyIndex;
import io.grove.core.node.Node;
import io.grove.core.resource.ResourceType;
import io.grove.http.ApiException;
import io.grove.http.Routes;
import io.grove.protocol.Checks;
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
                .doc(Routes.Doc.listOf("the nodes", NodeView.class))
                .get("/api/v1/pool_trees/{tree}/topology",
                        (request, params) -> read(request, cluster -> topology(cluster, params.get("tree"))))
                .doc(Routes.Doc.of("each topology level's domains, their nodes and what is free on them", TopologyView.class));
    }

    private List<NodeView> nodes(ClusterView cluster) {
        List<NodeView> list = new ArrayList<>();
        for (Node node : cluster.nodes()) {
            TopologyIndex topology = node.tree() == null ? null : cluster.topology(node.tree());
            list.add(views.node(node, topology == null ? List.of() : topology.levels(), cluster.reservationOn(node)));
        }
        return list;
    }

    private static TopologyView topology(ClusterView cluster, String tree) {
        TopologyIndex topology = cluster.topology(tree);
        if (topology == null) {
            throw ApiException.notFound("no pool tree '" + Checks.printable(tree, 64) + "'");
        }
        ResourceType main = cluster.config().trees().get(tree).mainResource();
        List<TopologyView.Level> levels = new ArrayList<>();
        for (String level : topology.levels()) {
            List<TopologyView.Domain> domains = new ArrayList<>();
            for (TopologyIndex.Domain domain : topology.domains(level)) {
                domains.add(new TopologyView.Domain(domain.name(), domain.nodes(), ApiValues.amounts(domain.free())));
            }
            TopologyIndex.Domain largest = topology.largestFree(level, main);
            levels.add(new TopologyView.Level(level, domains, largest == null ? null : largest.name()));
        }
        return new TopologyView(tree, main.key(), levels);
    }
}
