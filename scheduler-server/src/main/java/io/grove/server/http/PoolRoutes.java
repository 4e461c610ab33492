package io.grove.server.http;

import io.grove.api.ApiJson;
import io.grove.api.ErrorDetails;
import io.grove.api.PoolHistoryView;
import io.grove.api.PoolPauseRequest;
import io.grove.api.PoolTreeView;
import io.grove.api.PoolView;
import io.grove.core.cluster.ClusterView;
import io.grove.core.fairshare.ElementKind;
import io.grove.core.fairshare.ElementShares;
import io.grove.core.node.Node;
import io.grove.core.pool.AccessControl;
import io.grove.core.pool.PoolPause;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.http.ApiException;
import io.grove.http.ApiRequest;
import io.grove.http.ApiResponse;
import io.grove.http.Routes;
import io.grove.server.metrics.PoolHistory;
import io.grove.server.state.JournalEvent;
import io.grove.server.state.Revival;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** The pool trees and their pools with their shares; pausing and resuming a pool. */
final class PoolRoutes extends ApiResource {

    PoolRoutes(Parts parts) {
        super(parts);
    }

    @Override
    void addTo(Routes.Builder routes) {
        routes.get("/api/v1/pool_trees", (request, params) -> read(request, this::trees))
                .doc(Routes.Doc.listOf("the pool trees", PoolTreeView.class).id("listPoolTrees"))
                .get("/api/v1/pool_trees/{tree}/pools", (request, params) -> read(request, cluster -> pools(cluster, params.get("tree"))))
                .doc(Routes.Doc.listOf("the root and every pool of a tree, with fair shares", PoolView.class).id("listPools"))
                .get("/api/v1/pool_trees/{tree}/pools/{pool}",
                        (request, params) -> read(request, cluster -> pool(cluster, params.get("tree"), params.get("pool"))))
                .doc(Routes.Doc.of("one pool", PoolView.class).id("getPool"))
                .get("/api/v1/pool_trees/{tree}/pools/{pool}/history",
                        (request, params) -> read(request, cluster -> history(cluster, params.get("tree"), params.get("pool"))))
                .doc(Routes.Doc.of("its fair share, usage and demand over the last hours", PoolHistoryView.class).id("getPoolHistory"))
                .post("/api/v1/pool_trees/{tree}/pools/{pool}/pause",
                        (request, params) -> pause(request, params.get("tree"), params.get("pool")))
                .doc(Routes.Doc.of("pause the pool (and drain it)", PoolView.class).id("pausePool")
                        .taking(PoolPauseRequest.class))
                .post("/api/v1/pool_trees/{tree}/pools/{pool}/resume",
                        (request, params) -> resume(request, params.get("tree"), params.get("pool")))
                .doc(Routes.Doc.of("resume the pool", PoolView.class).id("resumePool").errors(409));
    }

    /**
     * Written ahead, by the pool's administrators: from the moment its record is durable no new job
     * starts in the pool's subtree (and with {@code drain} its running jobs are stopped).
     */
    private CompletableFuture<ApiResponse> pause(ApiRequest request, String tree, String name) {
        String user = request.requireUser();
        PoolPauseRequest body;
        try {
            body = ApiJson.readStrict(request.body().isBlank() ? "{}" : request.body(), PoolPauseRequest.class);
        } catch (IllegalArgumentException e) {
            throw new ApiException(400, "INVALID_REQUEST", "the body is not a pause: " + e.getMessage()
                    + "; a pause may set drain (true or false)");
        }
        boolean drain = Boolean.TRUE.equals(body.drain());
        String action = drain ? "drain" : "pause";
        return written(loop.call(cluster -> {
            mayAdminister(request, cluster, tree, name, action);
            PoolPause pause = new PoolPause(tree, name, drain, user, clock.now());
            return writeAhead.write(Revival.paused(pause),
                    done -> {
                        done.pause(pause);
                        audit(request, action, tree + "/" + name, "allowed", null);
                        return ApiResponse.ok(pool(done, tree, name));
                    },
                    failed -> audit(request, action, tree + "/" + name, "refused", "503: its record could not be written"));
        }).thenCompose(future -> future));
    }

    /** Written ahead, by the pool's administrators: jobs start in the pool again. */
    private CompletableFuture<ApiResponse> resume(ApiRequest request, String tree, String name) {
        String user = request.requireUser();
        return written(loop.call(cluster -> {
            mayAdminister(request, cluster, tree, name, "resume");
            if (!cluster.pauses(tree).containsKey(name)) {
                throw new ApiException(409, "NOT_PAUSED", "pool " + name + " of tree " + tree + " is not paused"
                        + (Views.paused(cluster, tree, name) == null ? ""
                                : "; it is held by the pause of " + Views.paused(cluster, tree, name).pool()),
                        new ErrorDetails.Pool(name, tree));
            }
            return writeAhead.write(new JournalEvent.PoolResumed(tree, name, user, clock.now().toEpochMilli()),
                    done -> {
                        done.resume(tree, name);
                        audit(request, "resume", tree + "/" + name, "allowed", null);
                        return ApiResponse.ok(pool(done, tree, name));
                    },
                    failed -> audit(request, "resume", tree + "/" + name, "refused", "503: its record could not be written"));
        }).thenCompose(future -> future));
    }

    /** Refuses unless the pool exists and the user administers it. */
    private void mayAdminister(ApiRequest request, ClusterView cluster, String tree, String name, String action) {
        pool(cluster, tree, name);
        if (cluster.registry().pools(tree) == null || !cluster.registry().pools(tree).contains(name)) {
            throw new ApiException(404, "NO_SUCH_POOL", "no configured pool " + name + " in tree " + tree
                    + " (the root and ephemeral pools cannot be paused)", new ErrorDetails.Pool(name, tree));
        }
        AccessControl.Decision decision = config.current().access().mayAdminister(tree,
                cluster.registry().pools(tree).pathToRoot(name), identity(request));
        if (!decision.allowed()) {
            throw forbidden(request, action, tree + "/" + name, "user " + request.user() + " may not " + action
                    + " pool \"" + name + "\": " + decision.rule());
        }
    }

    private List<PoolTreeView> trees(ClusterView cluster) {
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

    private List<PoolView> pools(ClusterView cluster, String tree) {
        result(cluster, tree);
        List<PoolView> list = new ArrayList<>();
        for (ElementShares element : cluster.elements(tree)) {
            if (element.kind() != ElementKind.OPERATION) {
                list.add(views.pool(cluster, tree, element));
            }
        }
        return list;
    }

    private PoolHistoryView history(ClusterView cluster, String tree, String name) {
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

    private PoolView pool(ClusterView cluster, String tree, String name) {
        ElementShares element = result(cluster, tree).elements().get(name);
        if (element == null || element.kind() == ElementKind.OPERATION) {
            throw new ApiException(404, "NO_SUCH_POOL", "no pool " + name + " in tree " + tree,
                    new ErrorDetails.Pool(name, tree));
        }
        return views.pool(cluster, tree, element);
    }
}
