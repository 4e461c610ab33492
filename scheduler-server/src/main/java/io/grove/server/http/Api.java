package io.grove.server.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.grove.config.LoadResult;
import io.grove.config.spec.OperationSpecLoader;
import io.grove.core.cluster.Cluster;
import io.grove.core.fairshare.ElementKind;
import io.grove.core.fairshare.ElementShares;
import io.grove.core.fairshare.FairShareResult;
import io.grove.core.node.Node;
import io.grove.core.operation.Job;
import io.grove.core.operation.Operation;
import io.grove.core.operation.OperationSpec;
import io.grove.core.operation.SubmitException;
import io.grove.core.pool.ConfigProblem;
import io.grove.core.pool.PartialResources;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.http.ApiException;
import io.grove.http.ApiRequest;
import io.grove.http.ApiResponse;
import io.grove.http.Routes;
import io.grove.server.Clock;
import io.grove.server.ConfigReloader;
import io.grove.server.loop.SchedulerLoop;
import io.grove.server.metrics.SchedulerMetrics;
import io.grove.server.state.Journal;
import io.grove.server.state.JournalEvent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * The routes of the HTTP API (documented in {@code docs/api.md}). Reads and changes run on the
 * scheduler's thread; a change is answered after its journal record is on disk.
 */
public final class Api implements Function<ApiRequest, CompletableFuture<ApiResponse>> {

    private final SchedulerLoop loop;
    private final Journal journal;
    private final Clock clock;
    private final ConfigReloader config;
    private final SchedulerMetrics metrics;
    private final AtomicLong operationNumbers;
    private final ObjectMapper json;
    private final Views views;
    private final io.grove.server.security.AuditLog audit;
    private final String nodeToken;
    private final java.net.http.HttpClient agents = java.net.http.HttpClient.newBuilder()
            .connectTimeout(java.time.Duration.ofSeconds(5)).build();
    private final Routes routes;

    /** Threads for work that blocks (parsing a candidate pools file); idle ones end after a minute. */
    private static final java.util.concurrent.Executor BLOCKING = java.util.concurrent.Executors.newCachedThreadPool(task -> {
        Thread thread = new Thread(task, "grove-api-blocking");
        thread.setDaemon(true);
        return thread;
    });

    public Api(SchedulerLoop loop, Journal journal, Clock clock, ConfigReloader config, SchedulerMetrics metrics,
            AtomicLong operationNumbers, ObjectMapper json, io.grove.server.net.NodeAddresses addresses,
            io.grove.server.security.AuditLog audit, String nodeToken) {
        this.audit = audit;
        this.nodeToken = nodeToken;
        this.loop = loop;
        this.journal = journal;
        this.clock = clock;
        this.config = config;
        this.metrics = metrics;
        this.operationNumbers = operationNumbers;
        this.json = json;
        this.views = new Views(json, addresses);
        this.routes = routes();
    }

    @Override
    public CompletableFuture<ApiResponse> apply(ApiRequest request) {
        return routes.apply(request);
    }

    /** Every route of the API, resource by resource (documented in {@code docs/api.md}). */
    private Routes routes() {
        return Routes.builder(BLOCKING, request -> {
            String path = "/" + String.join("/", request.path());
            boolean api = request.path().size() >= 3 && request.path().get(0).equals("api") && request.path().get(1).equals("v1");
            return ApiException.notFound("no route " + request.method() + " " + path + (api ? "" : "; the API is under /api/v1"));
        })
                .get("/healthz", (request, params) -> ok(json.createObjectNode().put("status", "ok")))
                .get("/metrics", (request, params) -> Routes.done(ApiResponse.text(metrics.scrape())))
                .with(this::operationRoutes)
                .with(this::poolRoutes)
                .get("/api/v1/nodes", (request, params) -> read(this::nodes))
                .with(this::configRoutes)
                .build();
    }

    private void operationRoutes(Routes.Builder routes) {
        routes.post("/api/v1/operations", (request, params) -> submit(request))
                .get("/api/v1/operations", (request, params) -> listOperations(request))
                .get("/api/v1/operations/{id}",
                        (request, params) -> read(cluster -> views.operation(operation(cluster, params.get("id")), cluster)))
                .patch("/api/v1/operations/{id}", (request, params) -> update(request, params.get("id")))
                .get("/api/v1/operations/{id}/jobs", (request, params) -> jobs(params.get("id")))
                .get("/api/v1/operations/{id}/jobs/{job}/logs",
                        (request, params) -> logs(request, params.get("id"), params.get("job")))
                .post("/api/v1/operations/{id}/abort", (request, params) -> abort(request, params.get("id")));
    }

    private void poolRoutes(Routes.Builder routes) {
        routes.get("/api/v1/pool_trees", (request, params) -> read(this::trees))
                .get("/api/v1/pool_trees/{tree}/pools", (request, params) -> read(cluster -> pools(cluster, params.get("tree"))))
                .get("/api/v1/pool_trees/{tree}/pools/{pool}",
                        (request, params) -> read(cluster -> pool(cluster, params.get("tree"), params.get("pool"))));
    }

    private void configRoutes(Routes.Builder routes) {
        routes.get("/api/v1/config", (request, params) -> ok(configView()))
                // parsing a candidate pools file is work for a thread of its own, not for the network's
                .add("POST", "/api/v1/config/diff", (request, params) -> CompletableFuture
                        .supplyAsync(() -> candidate(request), BLOCKING)
                        .thenCompose(candidate -> {
                            io.grove.core.pool.PoolsConfig current = config.current();
                            return read(cluster -> new ConfigDiffView(json).render(current, candidate, cluster, clock.now()));
                        }))
                .post("/api/v1/config/reload", (request, params) -> reload(request));
    }

    private io.grove.core.pool.PoolsConfig candidate(ApiRequest request) {
        io.grove.config.LoadResult<io.grove.core.pool.PoolsConfig> candidate =
                io.grove.config.PoolsConfigLoader.load(request.body(), "the candidate file");
        if (!candidate.ok()) {
            throw new ApiException(400, "INVALID_CONFIG", "the candidate pools file has "
                    + candidate.problems().size() + " problem(s)", Map.of("problems", problems(candidate.problems())));
        }
        return candidate.value();
    }

    private CompletableFuture<ApiResponse> reload(ApiRequest request) {
        request.requireUser();
        if (!config.current().access().isAdmin(identity(request))) {
            throw forbidden(request, "reload", "config", "only the cluster admins "
                    + config.current().access().admins() + " may reload the configuration");
        }
        return config.reload("requested by " + request.user()).thenApply(status -> {
            ObjectNode body = status(status);
            audit(request, "reload", "config", status.applied() ? "allowed" : "refused", status.message());
            if (!status.applied()) {
                throw new ApiException(status.problems().isEmpty() ? 409 : 400, "RELOAD_REFUSED",
                        status.message(), Map.of("problems", problems(status.problems())));
            }
            return ApiResponse.json(200, body.toPrettyString());
        });
    }

    private CompletableFuture<ApiResponse> ok(JsonNode body) {
        return CompletableFuture.completedFuture(ApiResponse.json(200, body.toPrettyString()));
    }

    private CompletableFuture<ApiResponse> read(Function<Cluster, JsonNode> view) {
        return loop.call(view).thenApply(body -> ApiResponse.json(200, body.toPrettyString()));
    }

    private static Operation operation(Cluster cluster, String id) {
        Operation operation = cluster.registry().operation(id);
        if (operation == null) {
            throw new ApiException(404, "NO_SUCH_OPERATION", "no operation " + id, Map.of("operation_id", id));
        }
        return operation;
    }

    // ---- operations -------------------------------------------------------------------------

    private CompletableFuture<ApiResponse> submit(ApiRequest request) {
        String user = request.requireUser();
        LoadResult<OperationSpec> loaded = OperationSpecLoader.load(request.body(), "the spec");
        if (!loaded.ok()) {
            throw new ApiException(400, "INVALID_SPEC", loaded.problems().size() + " problem(s) in the spec:\n"
                    + loaded.describe(), Map.of("problems", problems(loaded.problems())));
        }
        OperationSpec spec = loaded.value();
        io.grove.core.pool.AccessControl access = config.current().access();
        return loop.call(cluster -> {
            String id = "op-" + (operationNumbers.get() + 1);
            Operation operation;
            try {
                for (Map.Entry<String, List<String>> placed : cluster.registry().placementPaths(spec, user).entrySet()) {
                    io.grove.core.pool.AccessControl.Decision decision =
                            access.maySubmit(placed.getKey(), placed.getValue(), identity(request));
                    if (!decision.allowed()) {
                        throw forbidden(request, "submit", placed.getKey() + "/" + placed.getValue().get(0),
                                "user " + user + " may not submit to pool \"" + placed.getValue().get(0) + "\" in tree \""
                                        + placed.getKey() + "\": " + decision.rule());
                    }
                }
                operation = cluster.submit(id, spec, user, clock.now());
            } catch (SubmitException e) {
                audit(request, "submit", String.valueOf(spec.pool()), "refused", e.getMessage());
                throw refusal(e);
            }
            audit(request, "submit", id, "allowed", operation.poolByTree().toString());
            operationNumbers.incrementAndGet();
            CompletableFuture<Void> durable = journal.append(new JournalEvent.Submitted(id, spec, user,
                    operation.submitTime().toEpochMilli()));
            ObjectNode body = views.operationSummary(operation, cluster);
            return durable.thenApply(done -> ApiResponse.json(201, body.toPrettyString()));
        }).thenCompose(future -> future);
    }

    /**
     * The operation, if {@code request}'s user may change it: its owner, an administrator of its
     * pool (in any of its trees), or a cluster admin; else 403 with the rule.
     */
    private Operation mayChange(ApiRequest request, io.grove.core.cluster.Cluster cluster, Operation operation,
            String action) {
        if (operation.user().equals(request.user())) {
            return operation;
        }
        io.grove.core.pool.AccessControl access = config.current().access();
        String rule = null;
        for (Map.Entry<String, String> placed : operation.poolByTree().entrySet()) {
            io.grove.core.operation.TreePools pools = cluster.registry().pools(placed.getKey());
            List<String> path = pools != null && pools.contains(placed.getValue()) ? pools.pathToRoot(placed.getValue())
                    : List.of(placed.getValue());
            io.grove.core.pool.AccessControl.Decision decision = access.mayAdminister(placed.getKey(), path,
                    identity(request));
            if (decision.allowed()) {
                return operation;
            }
            rule = decision.rule();
        }
        throw forbidden(request, action, operation.id(), "user " + request.user() + " may not " + action + " "
                + operation.id() + " of " + operation.user() + ": only its owner and its pool's administrators may ("
                + rule + ")");
    }

    private ApiException forbidden(ApiRequest request, String action, String target, String message) {
        audit(request, action, target, "refused", "403: " + message);
        return new ApiException(403, "FORBIDDEN", message, Map.of("rule", message));
    }

    private void audit(ApiRequest request, String action, String target, String outcome, String detail) {
        if (audit != null) {
            audit.record(clock.now(), request.user(), request.source(), action, target, outcome, detail);
        }
    }

    static ApiException refusal(SubmitException e) {
        int status = switch (e.code()) {
            case TOO_MANY_OPERATIONS, TOO_MANY_EPHEMERAL_POOLS -> 429;
            case NO_SUCH_OPERATION -> 404;
            case FOREIGN_EPHEMERAL_POOL -> 403;
            case INVALID_STATE -> 409;
            default -> 400;
        };
        return new ApiException(status, e.code().name(), e.getMessage(), e.details());
    }

    private CompletableFuture<ApiResponse> listOperations(ApiRequest request) {
        String state = request.query().get("state");
        String pool = request.query().get("pool");
        String user = request.query().get("user");
        String tree = request.query().get("tree");
        int limit = intParam(request, "limit", 1000);
        return read(cluster -> {
            ArrayNode list = json.createArrayNode();
            for (Operation operation : cluster.registry().operations()) {
                if (list.size() >= limit) {
                    break;
                }
                if (state != null && !state.equalsIgnoreCase(operation.state().name())) {
                    continue;
                }
                if (user != null && !user.equals(operation.user())) {
                    continue;
                }
                if (tree != null && !operation.poolByTree().containsKey(tree)) {
                    continue;
                }
                if (pool != null && !operation.poolByTree().containsValue(pool)) {
                    continue;
                }
                list.add(views.operationSummary(operation, cluster));
            }
            return list;
        });
    }

    private static int intParam(ApiRequest request, String name, int fallback) {
        String value = request.query().get(name);
        if (value == null) {
            return fallback;
        }
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new ApiException(400, "BAD_PARAMETER", "'" + name + "' must be a number, got '" + value + "'");
        }
    }

    private CompletableFuture<ApiResponse> jobs(String id) {
        return read(cluster -> {
            Operation operation = operation(cluster, id);
            ArrayNode list = json.createArrayNode();
            for (Job job : operation.finishedJobs()) {
                list.add(views.job(job));
            }
            for (Job job : operation.runningJobs()) {
                list.add(views.job(job));
            }
            return list;
        });
    }

    /**
     * A job's log, read from its node's agent (with the node token) for its owner, its pool's
     * administrators and the cluster admins only.
     */
    private CompletableFuture<ApiResponse> logs(ApiRequest request, String id, String jobId) {
        String stream = request.query().getOrDefault("stream", "stdout");
        String offset = request.query().getOrDefault("offset", "0");
        if (!stream.matches("stdout|stderr") || !offset.matches("-?[0-9]{1,18}")) {
            throw new ApiException(400, "BAD_PARAMETER", "stream must be stdout or stderr and offset a number of bytes");
        }
        return loop.call(cluster -> {
            Operation operation = mayChange(request, cluster, operation(cluster, id), "read the logs of");
            Job job = null;
            for (Job candidate : operation.finishedJobs()) {
                job = candidate.id().equals(jobId) ? candidate : job;
            }
            for (Job candidate : operation.runningJobs()) {
                job = candidate.id().equals(jobId) ? candidate : job;
            }
            if (job == null) {
                throw ApiException.notFound("operation " + id + " has no job " + jobId);
            }
            String address = views.nodeAddress(job.nodeId());
            if (address == null) {
                throw ApiException.notFound("the node of job " + jobId + " (" + job.nodeId() + ") gave no address");
            }
            return java.net.URI.create("http://" + address + "/api/v1/jobs/" + jobId + "/logs?stream=" + stream
                    + "&offset=" + offset);
        }).thenCompose(uri -> {
            java.net.http.HttpRequest.Builder get = java.net.http.HttpRequest.newBuilder(uri)
                    .timeout(java.time.Duration.ofSeconds(30)).GET();
            if (nodeToken != null) {
                get.header("Authorization", "Bearer " + nodeToken);
            }
            return agents.sendAsync(get.build(), java.net.http.HttpResponse.BodyHandlers.ofString())
                    .handle((response, failure) -> {
                        if (failure != null) {
                            throw new ApiException(502, "AGENT_UNREACHABLE", "the agent at " + uri.getAuthority()
                                    + " did not answer: " + failure.getMessage());
                        }
                        return ApiResponse.json(response.statusCode(), response.body());
                    });
        });
    }

    private CompletableFuture<ApiResponse> abort(ApiRequest request, String id) {
        String user = request.requireUser();
        String message = "aborted by " + user;
        return loop.call(cluster -> {
            mayChange(request, cluster, operation(cluster, id), "abort");
            try {
                cluster.abort(id, clock.now(), message);
            } catch (SubmitException e) {
                throw refusal(e);
            }
            audit(request, "abort", id, "allowed", null);
            CompletableFuture<Void> durable = journal.append(new JournalEvent.Aborted(id, clock.now().toEpochMilli(), message));
            ObjectNode body = views.operationSummary(operation(cluster, id), cluster);
            return durable.thenApply(done -> ApiResponse.json(200, body.toPrettyString()));
        }).thenCompose(future -> future);
    }

    private CompletableFuture<ApiResponse> update(ApiRequest request, String id) {
        request.requireUser();
        JsonNode body;
        try {
            body = json.readTree(request.body().isBlank() ? "{}" : request.body());
        } catch (java.io.IOException e) {
            throw new ApiException(400, "INVALID_SPEC", "the body is not JSON: " + e.getMessage());
        }
        if (!body.isObject()) {
            throw new ApiException(400, "INVALID_SPEC", "the body must be a JSON object");
        }
        List<String> unknown = new ArrayList<>();
        body.fieldNames().forEachRemaining(name -> {
            if (!List.of("weight", "pool", "tree", "resource_limits").contains(name)) {
                unknown.add(name);
            }
        });
        if (!unknown.isEmpty()) {
            throw new ApiException(400, "INVALID_SPEC", "unknown field(s) " + unknown
                    + "; an update may set weight, pool (with tree) and resource_limits");
        }
        Double weight = body.has("weight") ? body.get("weight").asDouble(Double.NaN) : null;
        String pool = body.has("pool") ? body.get("pool").asText() : null;
        String tree = body.has("tree") ? body.get("tree").asText() : null;
        io.grove.core.resource.Resources limits = body.has("resource_limits") ? limits(body.get("resource_limits")) : null;
        return loop.call(cluster -> {
            Operation target = mayChange(request, cluster, operation(cluster, id), "update");
            if (pool != null) {
                String inTree = tree != null ? tree : target.poolByTree().keySet().iterator().next();
                if (cluster.registry().pools(inTree) != null && cluster.registry().pools(inTree).contains(pool)) {
                    io.grove.core.pool.AccessControl.Decision decision = config.current().access().maySubmit(inTree,
                            cluster.registry().pools(inTree).pathToRoot(pool), identity(request));
                    if (!decision.allowed()) {
                        throw forbidden(request, "update", id, "user " + request.user() + " may not move " + id
                                + " to pool \"" + pool + "\": " + decision.rule());
                    }
                }
            }
            audit(request, "update", id, "allowed", request.body().strip());
            try {
                cluster.updateOperation(id, weight, limits, tree, pool);
            } catch (SubmitException e) {
                throw refusal(e);
            }
            CompletableFuture<Void> durable = journal.append(new JournalEvent.Updated(id, weight, limits, tree, pool,
                    clock.now().toEpochMilli()));
            ObjectNode view = views.operation(operation(cluster, id), cluster);
            return durable.thenApply(done -> ApiResponse.json(200, view.toPrettyString()));
        }).thenCompose(future -> future);
    }

    private io.grove.core.resource.Resources limits(JsonNode node) {
        LoadResult<PartialResources> parsed = io.grove.config.spec.ResourcesParser.parse(node.toString(), "resource_limits");
        if (!parsed.ok()) {
            throw new ApiException(400, "INVALID_SPEC", parsed.describe(), Map.of("problems", problems(parsed.problems())));
        }
        return parsed.value().asLimits();
    }

    // ---- pools, nodes, config ---------------------------------------------------------------

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

    private static FairShareResult result(Cluster cluster, String tree) {
        if (!cluster.treeNames().contains(tree)) {
            throw new ApiException(404, "NO_SUCH_TREE", "no pool tree " + tree + "; trees: " + cluster.treeNames(),
                    Map.of("pool_tree", tree));
        }
        FairShareResult result = cluster.fairShare(tree);
        if (result == null) {
            throw new ApiException(409, "NO_FAIR_SHARE_YET", "tree " + tree + " has had no fair-share update yet");
        }
        return result;
    }

    private JsonNode nodes(Cluster cluster) {
        ArrayNode list = json.createArrayNode();
        for (Node node : cluster.nodes()) {
            list.add(views.node(node));
        }
        return list;
    }

    private ObjectNode configView() {
        ObjectNode node = json.createObjectNode();
        node.put("file", config.file().toString());
        node.put("default_tree", config.current().defaultTree());
        node.set("trees", json.valueToTree(config.current().trees().keySet()));
        node.set("last_reload", status(config.status()));
        node.put("text", config.currentText());
        return node;
    }

    private ObjectNode status(ConfigReloader.Status status) {
        ObjectNode node = json.createObjectNode();
        node.put("at", status.at().toString());
        node.put("applied", status.applied());
        node.put("message", status.message());
        node.set("problems", json.valueToTree(problems(status.problems())));
        return node;
    }

    static List<Map<String, Object>> problems(List<ConfigProblem> problems) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (ConfigProblem problem : problems) {
            Map<String, Object> item = new LinkedHashMap<>();
            item.put("code", problem.code().name().toLowerCase(Locale.ROOT));
            item.put("path", problem.path());
            item.put("attribute", problem.attribute());
            item.put("line", problem.line());
            item.put("message", problem.message());
            out.add(item);
        }
        return out;
    }

    /** Who makes the request, for access rules. */
    static io.grove.core.pool.AccessControl.Identity identity(ApiRequest request) {
        return new io.grove.core.pool.AccessControl.Identity(request.user() == null ? "" : request.user(), request.groups());
    }
}
