package io.grove.agent;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.grove.agent.broker.BrokerResources;
import io.grove.agent.broker.BrokerStatus;
import io.grove.agent.broker.TaskView;
import io.grove.agent.config.BrokerConfigWriter;
import io.grove.agent.job.WorkDir;
import io.grove.agent.metrics.AgentMetrics;
import io.grove.http.ApiException;
import io.grove.http.ApiRequest;
import io.grove.http.ApiResponse;
import io.grove.http.HeaderGate;
import io.grove.http.Routes;
import io.grove.http.Secrets;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
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
    private final Supplier<CompletableFuture<ObjectNode>> node;
    private final ObjectMapper json;
    private final String nodeToken;
    private final Routes routes;

    /** Threads for log reads; idle ones end after a minute. */
    private static final Executor BLOCKING = Routes.blockingExecutor("grove-agent-logs");

    AgentRoutes(String nodeToken, WorkDir workDir, AgentMetrics metrics, Supplier<CompletableFuture<BrokerStatus>> brokerStatus,
            Supplier<CompletableFuture<ObjectNode>> node, ObjectMapper json) {
        this.workDir = workDir;
        this.metrics = metrics;
        this.brokerStatus = brokerStatus;
        this.node = node;
        this.json = json;
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
        return Routes.builder(BLOCKING, request -> new ApiException(404, "NOT_FOUND", "no route " + String.join("/", request.path())
                        + " (routes: /health, /metrics, /api/v1/node, /api/v1/broker, /api/v1/jobs/JOB/logs)"))
                .get("/health", (request, params) -> Routes.done(ApiResponse.json(200, "{\"status\": \"ok\"}")))
                .get("/metrics", (request, params) -> Routes.done(ApiResponse.text(metrics.scrape())))
                // reading a log file blocks: on a thread of its own, never on the network's
                .blocking("GET", "/api/v1/jobs/{job}/logs", (request, params) -> {
                    requireNodeToken(request);
                    return log(params.get("job"), request);
                })
                .get("/api/v1/broker", (request, params) -> brokerStatus.get()
                        .thenApply(status -> ApiResponse.json(200, brokerJson(status).toPrettyString())))
                .get("/api/v1/node", (request, params) -> node.get().thenApply(n -> ApiResponse.json(200, n.toPrettyString())))
                .build();
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
        Path file = workDir.log(jobId, stream).orElseThrow(() -> new ApiException(404, "NOT_FOUND",
                "no " + stream + " of job " + jobId + " on this node (never ran here, or its logs expired)"));
        try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
            long length = in.length();
            long from = offset < 0 ? Math.max(0, length + offset) : Math.min(offset, length);
            byte[] data = new byte[(int) Math.min(MAX_LOG_CHUNK, length - from)];
            in.seek(from);
            in.readFully(data);
            ObjectNode body = json.createObjectNode();
            body.put("job_id", jobId);
            body.put("stream", stream);
            body.put("offset", from);
            body.put("next_offset", from + data.length);
            body.put("size", length);
            body.put("data", new String(data, StandardCharsets.UTF_8));
            return ApiResponse.json(200, body.toPrettyString());
        } catch (IOException e) {
            throw new ApiException(500, "INTERNAL", "cannot read the log: " + e.getMessage());
        }
    }

    ObjectNode brokerJson(BrokerStatus status) {
        ObjectNode body = json.createObjectNode();
        body.put("config_yaml", BrokerConfigWriter.toYaml(status.config()));
        body.set("used", resources(status.used()));
        body.set("node_capacity", resources(status.nodeCapacity()));
        body.set("resource_limit", resources(status.config().resourceLimit()));
        body.put("missing_task_types", status.missingTaskTypes());
        ArrayNode queues = body.putArray("queues");
        for (BrokerStatus.QueueState q : status.queues()) {
            ObjectNode node = queues.addObject();
            node.put("name", q.name());
            node.put("weight", q.weight());
            node.set("limit", resources(q.limit()));
            node.set("used", resources(q.used()));
            node.put("real_usage", q.real());
            node.put("planned_usage", q.planned());
            node.put("active", q.active());
            node.put("waiting", q.waiting());
            node.put("in_fly", q.inFly());
        }
        ArrayNode types = body.putArray("task_types");
        for (BrokerStatus.TypeState t : status.types()) {
            ObjectNode node = types.addObject();
            node.put("name", t.name());
            node.put("queue", t.queue());
            node.put("default_duration_ms", t.defaultDurationMs());
            node.put("planned_duration_ms", t.plannedDurationMs());
            node.put("finished", t.measured());
        }
        ObjectNode counters = body.putObject("sensors");
        counters.set("queue", json.valueToTree(status.queueCounters()));
        counters.set("task", json.valueToTree(status.typeCounters()));
        ArrayNode tasks = body.putArray("tasks");
        for (TaskView task : status.tasks()) {
            ObjectNode node = tasks.addObject();
            node.put("client", task.client());
            node.put("task_id", task.taskId());
            node.put("name", task.name());
            node.put("type", task.type());
            node.put("queue", task.queue());
            node.set("resources", resources(task.resources()));
            node.put("priority", task.priority());
            node.put("state", task.inFly() ? "in_fly" : "queued");
            node.put("waited_ms", (task.inFly() ? task.startedAt() : status.now()) - task.submittedAt());
            if (task.inFly()) {
                node.put("running_ms", status.now() - task.startedAt());
            }
        }
        return body;
    }

    private ObjectNode resources(BrokerResources r) {
        ObjectNode node = json.createObjectNode();
        if (r.cpuMillis() != BrokerResources.UNLIMITED_AMOUNT) {
            node.put("cpu", r.cpu());
        }
        if (r.memory() != BrokerResources.UNLIMITED_AMOUNT) {
            node.put("memory", r.memory());
        }
        return node;
    }
}
