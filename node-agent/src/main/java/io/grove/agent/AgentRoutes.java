package io.grove.agent;

import com.fasterxml.jackson.databind.JsonNode;
import io.grove.agent.broker.BrokerResources;
import io.grove.agent.broker.BrokerStatus;
import io.grove.agent.broker.Counters;
import io.grove.agent.broker.TaskView;
import io.grove.agent.config.BrokerConfigWriter;
import io.grove.agent.job.WorkDir;
import io.grove.agent.metrics.AgentMetrics;
import io.grove.api.AgentNodeView;
import io.grove.api.Amounts;
import io.grove.api.ApiError;
import io.grove.api.ApiJson;
import io.grove.api.BrokerView;
import io.grove.api.Health;
import io.grove.api.JobLog;
import io.grove.http.ApiException;
import io.grove.http.ApiRequest;
import io.grove.http.ApiResponse;
import io.grove.http.HeaderGate;
import io.grove.http.OpenApi;
import io.grove.http.Routes;
import io.grove.http.Secrets;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The agent's HTTP endpoint: {@code /health}, {@code /metrics}, job logs
 * ({@code /api/v1/jobs/JOB/logs?stream=stdout|stderr&offset=N}), the broker's monitoring view
 * ({@code /api/v1/broker}) and the node ({@code /api/v1/node}).
 */
final class AgentRoutes implements Function<ApiRequest, CompletableFuture<ApiResponse>>, HeaderGate {

    /** The most log bytes one request returns. */
    static final int MAX_LOG_CHUNK = 1 << 20;

    private final WorkDir workDir;
    private final AgentMetrics metrics;
    private final Supplier<CompletableFuture<BrokerStatus>> brokerStatus;
    private final Supplier<CompletableFuture<AgentNodeView>> node;
    private final String nodeToken;
    private final Routes routes;

    /** Threads for log reads; idle ones end after a minute. */
    private static final Executor BLOCKING = Routes.blockingExecutor("grove-agent-logs");

    AgentRoutes(String nodeToken, WorkDir workDir, AgentMetrics metrics, Supplier<CompletableFuture<BrokerStatus>> brokerStatus,
            Supplier<CompletableFuture<AgentNodeView>> node) {
        this.workDir = workDir;
        this.metrics = metrics;
        this.brokerStatus = brokerStatus;
        this.node = node;
        this.nodeToken = nodeToken;
        this.routes = routes();
    }

    /** The endpoint is read-only: anything but GET is refused on its head, its body never read. */
    @Override
    public ApiException checkHead(ApiRequest head) {
        return head.method().equals("GET") ? null
                : new ApiException(405, "METHOD_NOT_ALLOWED", "the agent's endpoint is read-only");
    }

    @Override
    public CompletableFuture<ApiResponse> apply(ApiRequest request) {
        if (!request.method().equals("GET")) {
            throw new ApiException(405, "METHOD_NOT_ALLOWED", "the agent's endpoint is read-only");
        }
        return routes.apply(request);
    }

    private Routes routes() {
        AtomicReference<Routes> built = new AtomicReference<>();
        Routes routes = Routes.builder(BLOCKING, request -> new ApiException(404, "NOT_FOUND", "no route "
                        + String.join("/", request.path())
                        + " (routes: /health, /metrics, /api/v1/node, /api/v1/broker, /api/v1/jobs/JOB/logs, /api/v1/openapi.json)"))
                .get("/health", (request, params) -> Routes.done(ApiResponse.ok(Health.OK)))
                .doc(Routes.Doc.of("the agent answers", Health.class).id("getHealth"))
                .get("/metrics", (request, params) -> Routes.done(ApiResponse.text(metrics.scrape())))
                .doc(Routes.Doc.untyped("Prometheus text").id("getMetrics"))
                // reading a log file blocks: on a thread of its own, never on the network's
                .blocking("GET", "/api/v1/jobs/{job}/logs", (request, params) -> {
                    requireNodeToken(request);
                    return log(params.get("job"), request);
                })
                .doc(Routes.Doc.of("a job's log (with a node token: for the scheduler only)", JobLog.class)
                        .id("readJobLog")
                        .query(Routes.Param.oneOf("stream", "which output (default stdout)", "stdout", "stderr"),
                                Routes.Param.integer("offset", "the byte to read from; negative: that many bytes before the end")))
                .get("/api/v1/broker", (request, params) -> brokerStatus.get()
                        .thenApply(status -> ApiResponse.ok(brokerView(status))))
                .doc(Routes.Doc.of("the Resource Broker's queues and tasks", BrokerView.class).id("getBroker"))
                .get("/api/v1/node", (request, params) -> node.get().thenApply(ApiResponse::ok))
                .doc(Routes.Doc.of("the node: its resources, jobs, GPUs, images", AgentNodeView.class).id("getNode"))
                .get("/api/v1/openapi.json", (request, params) -> Routes.done(ApiResponse.ok(openApi(built.get()))))
                .doc(Routes.Doc.untyped("this document: the agent's endpoint in OpenAPI 3.1").id("getOpenApi"))
                .build();
        built.set(routes);
        return routes;
    }

    private volatile JsonNode openApi;

    /** The endpoint's OpenAPI document, made from its route table at the first ask. */
    JsonNode openApi(Routes routes) {
        if (openApi == null) {
            openApi = OpenApi.document("Grove node agent", "v1", routes.described(), ApiError.class,
                    Set.of("/health", "/metrics", "/api/v1/openapi.json", "/api/v1/broker", "/api/v1/node"),
                    ApiJson.mapper());
        }
        return openApi;
    }

    /**
     * With a node token, job logs are for the scheduler only (it checks who may read them and
     * asks with the node token).
     */
    private void requireNodeToken(ApiRequest request) {
        if (nodeToken == null) {
            return;
        }
        if (!Secrets.equal(nodeToken,
                Secrets.bearer(request.authorization()))) {
            throw new ApiException(401, "UNAUTHENTICATED", "job logs are read through the scheduler "
                    + "(GET /api/v1/operations/OP/jobs/JOB/logs, or grove jobs logs)");
        }
    }

    private ApiResponse log(String jobId, ApiRequest request) {
        String stream = request.query().getOrDefault("stream", "stdout");
        if (!stream.equals("stdout") && !stream.equals("stderr")) {
            throw new ApiException(400, "BAD_REQUEST", "stream must be stdout or stderr, got '" + stream + "'");
        }
        long offset;
        try {
            offset = Long.parseLong(request.query().getOrDefault("offset", "0"));
        } catch (NumberFormatException e) {
            throw new ApiException(400, "BAD_REQUEST", "offset must be a number of bytes");
        }
        // a job that just ended has its logs moved to the archive: found in its directory, then gone, it is looked up again
        for (int attempt = 0; ; attempt++) {
            Path file = workDir.log(jobId, stream).orElseThrow(() -> new ApiException(404, "NOT_FOUND",
                    "no " + stream + " of job " + jobId + " on this node (never ran here, or its logs expired)"));
            try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
                long length = in.length();
                long from = offset < 0 ? Math.max(0, length + offset) : Math.min(offset, length);
                byte[] data = new byte[(int) Math.min(MAX_LOG_CHUNK, length - from)];
                in.seek(from);
                in.readFully(data);
                return ApiResponse.ok(new JobLog(jobId, stream, from, from + data.length, length,
                        new String(data, StandardCharsets.UTF_8)));
            } catch (FileNotFoundException moved) {
                if (attempt > 0) {
                    throw new ApiException(500, "INTERNAL", "cannot read the log: " + moved.getMessage());
                }
            } catch (IOException e) {
                throw new ApiException(500, "INTERNAL", "cannot read the log: " + e.getMessage());
            }
        }
    }

    static BrokerView brokerView(BrokerStatus status) {
        List<BrokerView.Queue> queues = new ArrayList<>();
        for (BrokerStatus.QueueState q : status.queues()) {
            queues.add(new BrokerView.Queue(q.name(), q.weight(), amounts(q.limit()), amounts(q.used()), q.real(),
                    q.planned(), q.active(), q.waiting(), q.inFly()));
        }
        List<BrokerView.TaskType> types = new ArrayList<>();
        for (BrokerStatus.TypeState t : status.types()) {
            types.add(new BrokerView.TaskType(t.name(), t.queue(), t.defaultDurationMs(), t.plannedDurationMs(),
                    t.measured()));
        }
        List<BrokerView.Task> tasks = new ArrayList<>();
        for (TaskView task : status.tasks()) {
            tasks.add(new BrokerView.Task(task.client(), task.taskId(), task.name(), task.type(), task.queue(),
                    amounts(task.resources()), task.priority(), task.inFly() ? "in_fly" : "queued",
                    (task.inFly() ? task.startedAt() : status.now()) - task.submittedAt(),
                    task.inFly() ? status.now() - task.startedAt() : null));
        }
        return new BrokerView(BrokerConfigWriter.toYaml(status.config()), amounts(status.used()),
                amounts(status.nodeCapacity()), amounts(status.config().resourceLimit()), status.missingTaskTypes(),
                queues, types, new BrokerView.Sensors(counters(status.queueCounters()), counters(status.typeCounters())),
                tasks);
    }

    private static Map<String, BrokerView.Counters> counters(Map<String, Counters.CounterValues> values) {
        Map<String, BrokerView.Counters> out = new LinkedHashMap<>();
        values.forEach((label, v) -> out.put(label, new BrokerView.Counters(v.enqueuedTasks(), v.inFlyTasks(),
                v.finishedTasks(), v.cpuConsumptionMillis(), v.memoryConsumption())));
        return out;
    }

    /** The broker's amounts: cpu and memory, each left out when unlimited. */
    private static Amounts amounts(BrokerResources r) {
        return new Amounts(null, r.cpuMillis() == BrokerResources.UNLIMITED_AMOUNT ? null : r.cpu(), null,
                r.memory() == BrokerResources.UNLIMITED_AMOUNT ? null : (double) r.memory(), null);
    }
}
