package io.grove.server.http;

import io.grove.api.ApiJson;
import io.grove.api.JobLog;
import io.grove.api.JobView;
import io.grove.core.operation.Job;
import io.grove.core.operation.Operation;
import io.grove.http.ApiException;
import io.grove.http.ApiRequest;
import io.grove.http.ApiResponse;
import io.grove.http.Futures;
import io.grove.http.Routes;
import io.grove.protocol.Checks;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** An operation's jobs, and a job's logs read from its node's agent. */
final class JobRoutes extends ApiResource {

    private final HttpClient agents = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5)).build();

    JobRoutes(Parts parts) {
        super(parts);
    }

    @Override
    void addTo(Routes.Builder routes) {
        routes.get("/api/v1/operations/{id}/jobs", (request, params) -> jobs(request, params.get("id")))
                .doc(Routes.Doc.listOf("its running jobs and last ended attempts", JobView.class).id("listJobs")
                        .query(Params.LIMIT, Params.CURSOR).pagedByCursor().id("listJobs"))
                .get("/api/v1/operations/{id}/jobs/{job}/logs",
                        (request, params) -> logs(request, params.get("id"), params.get("job")))
                .doc(Routes.Doc.of("a job's log, from its node", JobLog.class).id("readJobLog").query(
                        Routes.Param.oneOf("stream", "which output (default stdout)", "stdout", "stderr"),
                        Routes.Param.integer("offset", "the byte to read from; negative: that many bytes before the end")));
    }

    /**
     * A page of an operation's jobs: those that ended, in the order they ended, then those running.
     * The cursor is how many came before; jobs that end between pages may move (the kept ended jobs
     * are the last {@value io.grove.core.operation.Operation#FINISHED_JOBS_KEPT}).
     */
    private CompletableFuture<ApiResponse> jobs(ApiRequest request, String id) {
        int limit = Pages.limit(request);
        String cursor = request.query().get("cursor");
        if (cursor != null && !cursor.matches("[0-9]{1,9}")) {
            throw Pages.badCursor(cursor, "is not a place in the list");
        }
        int from = cursor == null ? 0 : Integer.parseInt(cursor);
        return loop.read(cluster -> {
            present(request);
            Operation operation = operation(cluster, id);
            boolean output = mayReadOutput(request, cluster, operation);
            List<Job> finished = operation.finishedJobs();
            List<Job> running = operation.runningJobs();
            int total = finished.size() + running.size();
            List<JobView> list = new ArrayList<>();
            for (int i = from; i < total && list.size() < limit; i++) {
                list.add(views.job(i < finished.size() ? finished.get(i) : running.get(i - finished.size()), operation,
                        output));
            }
            int next = from + list.size();
            return Pages.page(list, next < total ? String.valueOf(next) : null);
        });
    }

    /**
     * The URI of a path on a node's agent, built from its parts: the address a node gave
     * ({@code host:port}, checked at its handshake) is a host and a port, never a path or a query.
     */
    static URI agentUri(String address, String path, String query) {
        int colon = address.lastIndexOf(':');
        String host = address.substring(0, colon);
        if (host.contains(":") && !host.startsWith("[")) {
            host = "[" + host + "]";
        }
        try {
            return new URI("http", null, host, Integer.parseInt(address.substring(colon + 1)), path, query, null);
        } catch (URISyntaxException | NumberFormatException | StringIndexOutOfBoundsException e) {
            throw new ApiException(502, "AGENT_UNREACHABLE", "the node's address is not host:port");
        }
    }

    /** Where a job's log is read, and whether the scheduler has the job running. */
    private record AgentLog(URI uri, boolean running) {
    }

    /** The most of an agent's answer read: a page of a log (1 MiB) as JSON, escapes and all. */
    static final int MAX_AGENT_ANSWER = 8 << 20;

    /**
     * What the agent answered, as the API's own answer: a log is read (at most
     * {@value #MAX_AGENT_ANSWER} bytes) and written again as a {@link JobLog}; anything else is
     * said in the scheduler's words, and no body of the agent's is passed on.
     */
    private static ApiResponse relay(URI uri, String jobId, String stream, boolean running,
            HttpResponse<InputStream> response, Throwable failure) {
        if (failure != null) {
            throw new ApiException(502, "AGENT_UNREACHABLE", "the agent at " + uri.getAuthority() + " did not answer: "
                    + Checks.printable(String.valueOf(Futures.cause(failure).getMessage()), 200));
        }
        try (InputStream body = response.body()) {
            if (response.statusCode() == 404 && running) {
                // the job was sent to its node and has not been started there yet: no output so far
                return ApiResponse.ok(new JobLog(jobId, stream, 0, 0, 0, ""));
            }
            if (response.statusCode() == 404) {
                throw ApiException.notFound("the agent at " + uri.getAuthority() + " has no log of job " + jobId);
            }
            if (response.statusCode() != 200) {
                throw new ApiException(502, "AGENT_ERROR", "the agent at " + uri.getAuthority() + " answered HTTP "
                        + response.statusCode());
            }
            byte[] bytes = body.readNBytes(MAX_AGENT_ANSWER + 1);
            if (bytes.length > MAX_AGENT_ANSWER) {
                throw new ApiException(502, "AGENT_ERROR", "the agent at " + uri.getAuthority() + " answered more than "
                        + MAX_AGENT_ANSWER + " bytes");
            }
            return ApiResponse.ok(ApiJson.readStrict(new String(bytes, StandardCharsets.UTF_8), JobLog.class));
        } catch (IOException | IllegalArgumentException e) {
            throw new ApiException(502, "AGENT_ERROR", "the agent at " + uri.getAuthority() + " answered no job log");
        }
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
            boolean running = false;
            for (Job candidate : operation.runningJobs()) {
                if (candidate.id().equals(jobId)) {
                    job = candidate;
                    running = true;
                }
            }
            if (job == null) {
                throw ApiException.notFound("operation " + id + " has no job " + jobId);
            }
            String address = views.agentAddress(job.nodeId());
            if (address == null) {
                throw ApiException.notFound("the node of job " + jobId + " (" + job.nodeId() + ") gave no address");
            }
            return new AgentLog(agentUri(address, "/api/v1/jobs/" + jobId + "/logs", "stream=" + stream + "&offset=" + offset),
                    running);
        }).thenCompose(log -> {
            URI uri = log.uri();
            HttpRequest.Builder get = HttpRequest.newBuilder(uri)
                    .timeout(Duration.ofSeconds(30)).GET();
            if (nodeToken != null) {
                get.header("Authorization", "Bearer " + nodeToken);
            }
            return agents.sendAsync(get.build(), HttpResponse.BodyHandlers.ofInputStream())
                    .handleAsync((response, failure) -> relay(uri, jobId, stream, log.running(), response, failure),
                            Api.BLOCKING);
        });
    }
}
