package io.grove.server.http;

import io.grove.api.ApiJson;
import io.grove.api.NodeDrainRequest;
import io.grove.api.NodeView;
import io.grove.api.TopologyView;
import io.grove.core.cluster.Cluster;
import io.grove.core.cluster.ClusterView;
import io.grove.core.cluster.TopologyIndex;
import io.grove.core.node.Node;
import io.grove.core.node.NodeDrain;
import io.grove.core.resource.ResourceType;
import io.grove.http.ApiException;
import io.grove.http.ApiRequest;
import io.grove.http.ApiResponse;
import io.grove.http.Routes;
import io.grove.protocol.Checks;
import io.grove.server.state.JournalEvent;
import io.grove.server.state.Revival;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** The nodes and their state; draining and undraining a node. */
final class NodeRoutes extends ApiResource {

    NodeRoutes(Parts parts) {
        super(parts);
    }

    @Override
    void addTo(Routes.Builder routes) {
        routes.get("/api/v1/nodes", (request, params) -> read(request, this::nodes))
                .doc(Routes.Doc.listOf("the nodes", NodeView.class).id("listNodes"))
                .post("/api/v1/nodes/{node}/drain", (request, params) -> drain(request, params.get("node")))
                .doc(Routes.Doc.of("drain the node: no new jobs start on it (cluster admins)", NodeView.class).id("drainNode")
                        .taking(NodeDrainRequest.class))
                .post("/api/v1/nodes/{node}/undrain", (request, params) -> undrain(request, params.get("node")))
                .doc(Routes.Doc.of("undrain the node: jobs start on it again (cluster admins)", NodeView.class).id("undrainNode").errors(409))
                .get("/api/v1/pool_trees/{tree}/topology",
                        (request, params) -> read(request, cluster -> topology(cluster, params.get("tree"))))
                .doc(Routes.Doc.of("each topology level's domains, their nodes and what is free on them", TopologyView.class).id("getTopology"));
    }

    /**
     * Written ahead, by the cluster's admins: from the moment its record is durable no new job
     * starts on the node (and with {@code now} its running jobs are stopped gracefully).
     */
    private CompletableFuture<ApiResponse> drain(ApiRequest request, String id) {
        String user = request.requireUser();
        NodeDrainRequest body;
        try {
            body = ApiJson.readStrict(request.body().isBlank() ? "{}" : request.body(), NodeDrainRequest.class);
        } catch (IllegalArgumentException e) {
            throw new ApiException(400, "INVALID_REQUEST", "the body is not a drain: " + e.getMessage()
                    + "; a drain may set reason (text) and now (true or false)");
        }
        if (body.reason() != null && (body.reason().length() > NodeDrain.MAX_REASON
                || !Checks.printable(body.reason(), NodeDrain.MAX_REASON).equals(body.reason()))) {
            throw new ApiException(400, "INVALID_REQUEST", "a drain's reason is printable text of at most "
                    + NodeDrain.MAX_REASON + " characters");
        }
        boolean now = Boolean.TRUE.equals(body.now());
        String action = now ? "drain now" : "drain";
        return written(loop.call(cluster -> {
            mayAdminister(request, action, id);
            if (cluster.node(id) == null) {
                throw ApiException.notFound("no node '" + Checks.printable(id, 256) + "' (see GET /api/v1/nodes)");
            }
            NodeDrain drain = new NodeDrain(id, body.reason(), now, user, clock.now());
            return writeAhead.write(Revival.drained(drain),
                    done -> {
                        done.drains().drain(drain);
                        audit(request, action, "node/" + id, "allowed", drain.reason());
                        return ApiResponse.ok(node(done, done.node(id)));
                    },
                    failed -> audit(request, action, "node/" + id, "refused", "503: its record could not be written"));
        }).thenCompose(future -> future));
    }

    /** Written ahead, by the cluster's admins: jobs start on the node again. */
    private CompletableFuture<ApiResponse> undrain(ApiRequest request, String id) {
        String user = request.requireUser();
        return written(loop.call(cluster -> {
            mayAdminister(request, "undrain", id);
            if (cluster.drains().of(id) == null) {
                throw new ApiException(409, "NOT_DRAINED", "node " + Checks.printable(id, 256) + " is not drained");
            }
            return writeAhead.write(new JournalEvent.NodeUndrained(id, user, clock.now().toEpochMilli()),
                    done -> {
                        done.drains().undrain(id);
                        audit(request, "undrain", "node/" + id, "allowed", null);
                        Node node = done.node(id);
                        return ApiResponse.ok(node == null ? null : node(done, node));
                    },
                    failed -> audit(request, "undrain", "node/" + id, "refused", "503: its record could not be written"));
        }).thenCompose(future -> future));
    }

    private void mayAdminister(ApiRequest request, String action, String id) {
        if (!config.current().access().isAdmin(identity(request))) {
            throw forbidden(request, action, "node/" + id, "only the cluster admins " + config.current().access().admins()
                    + " may " + action + " a node");
        }
    }

    private NodeView node(ClusterView cluster, Node node) {
        TopologyIndex topology = node.tree() == null ? null : cluster.topology(node.tree());
        return views.node(node, topology == null ? List.of() : topology.levels(), cluster.reservationOn(node));
    }

    private List<NodeView> nodes(ClusterView cluster) {
        List<NodeView> list = new ArrayList<>();
        for (Node node : cluster.nodes()) {
            list.add(node(cluster, node));
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
