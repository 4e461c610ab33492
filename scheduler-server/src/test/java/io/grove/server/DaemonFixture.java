package io.grove.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.grove.protocol.Handshake;
import io.grove.protocol.HeartbeatReply;
import io.grove.protocol.Message;
import io.grove.protocol.NodeClient;
import io.grove.protocol.NodeHeartbeat;
import io.grove.protocol.RunningJob;
import io.grove.protocol.Welcome;
import io.grove.core.resource.Resources;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Talks to a daemon like its users and nodes do: HTTP for users, the protocol client for nodes. */
final class DaemonFixture implements AutoCloseable {

    static final String POOLS = """
            default_tree: physical
            pool_trees:
              physical:
                fair_share_starvation_timeout: 2s
                pools:
                  prod: {weight: 3}
                  adhoc: {max_running_operation_count: 1}
            """;

    static final Duration TIMEOUT = Duration.ofSeconds(10);

    final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    final HttpClient http = HttpClient.newHttpClient();
    final ObjectMapper json = new ObjectMapper();
    int httpPort;
    int nodePort;

    static Path config(Path dir, String text) throws IOException {
        Path file = dir.resolve("pools.yaml");
        Files.writeString(file, text);
        return file;
    }

    /**
     * A daemon of {@code pools} on free ports and {@code clock}, nodes heartbeating every second,
     * fair shares updated when a test says ({@code updateFairShare}), not by a timer.
     */
    static SchedulerDaemon startByHand(Path dir, String pools, Clock clock) throws Exception {
        DaemonSettings settings = DaemonSettings.defaults(config(dir, pools), dir.resolve("data"))
                .withPorts(0, 0).withPeriods(Duration.ofSeconds(1), Duration.ofHours(1));
        return SchedulerDaemon.start(settings, clock);
    }

    DaemonFixture at(int httpPort, int nodePort) {
        this.httpPort = httpPort;
        this.nodePort = nodePort;
        return this;
    }

    /** A simulated node: it keeps the jobs it is given until told otherwise. */
    final class FakeNode implements AutoCloseable {
        final String id;
        final Resources limits;
        final NodeClient client;
        final Map<String, HeartbeatReply.JobToStart> running = new LinkedHashMap<>();
        final List<io.grove.protocol.FinishedJob> finished = new ArrayList<>();
        /** The address it gives in its handshake ({@code host:port} of its agent), or empty. */
        String address = "";
        /** Where it says it sits in its handshake: level to domain, widest first. */
        Map<String, String> topology = Map.of();

        FakeNode(String id, Resources limits) throws Exception {
            this.id = id;
            this.limits = limits;
            this.client = NodeClient.connect(group, "127.0.0.1", nodePort, TIMEOUT, Message.DEFAULT_MAX_FRAME_BYTES);
        }

        Message handshake() throws Exception {
            List<RunningJob> jobs = new ArrayList<>();
            running.keySet().forEach(job -> jobs.add(new RunningJob(job, running.get(job).operationId(), null)));
            // the results not acknowledged yet go with the handshake; the welcome acknowledges them
            Message reply = client.request(new Handshake(Message.VERSION, id, address, List.of(), limits, jobs, null,
                    List.copyOf(finished), null, null, topology), TIMEOUT).get();
            if (reply instanceof Welcome) {
                finished.clear();
            }
            return reply;
        }

        HeartbeatReply heartbeat() throws Exception {
            List<RunningJob> jobs = new ArrayList<>();
            running.forEach((job, start) -> jobs.add(new RunningJob(job, start.operationId(), start.resources())));
            Message reply = client.request(new NodeHeartbeat(id, limits, null, jobs, List.copyOf(finished)), TIMEOUT).get();
            finished.clear();
            if (!(reply instanceof HeartbeatReply heartbeatReply)) {
                throw new AssertionError("expected a heartbeat reply, got " + reply);
            }
            for (HeartbeatReply.JobToStart start : heartbeatReply.jobsToStart()) {
                running.put(start.jobId(), start);
            }
            heartbeatReply.jobsToAbort().forEach(abort -> running.remove(abort.jobId()));
            heartbeatReply.jobsToInterrupt().forEach(interrupt -> {
                if (running.remove(interrupt.jobId()) != null) {
                    finished.add(new io.grove.protocol.FinishedJob(interrupt.jobId(),
                            io.grove.protocol.FinishedJob.Outcome.ABORTED, null, "interrupted", 0, 0));
                }
            });
            return heartbeatReply;
        }

        /** A protocol version 2 delta heartbeat: what started and what ended since the last one. */
        HeartbeatReply delta(List<RunningJob> started, List<io.grove.protocol.FinishedJob> ended) throws Exception {
            Message reply = client.request(io.grove.protocol.NodeHeartbeat.delta(id, limits, null, started, ended),
                    TIMEOUT).get();
            if (!(reply instanceof HeartbeatReply heartbeatReply)) {
                throw new AssertionError("expected a heartbeat reply, got " + reply);
            }
            return heartbeatReply;
        }

        void complete(String jobId) {
            running.remove(jobId);
            finished.add(new io.grove.protocol.FinishedJob(jobId, io.grove.protocol.FinishedJob.Outcome.COMPLETED, 0, null, 0, 0));
        }

        void completeAll() {
            for (String job : List.copyOf(running.keySet())) {
                complete(job);
            }
        }

        @Override
        public void close() {
            client.close();
        }
    }

    FakeNode node(String id, double cpu) throws Exception {
        return new FakeNode(id, new Resources(cpu, cpu, 0, cpu * 4e9, 0));
    }

    record Reply(int status, JsonNode body) {
    }

    Reply send(String method, String path, String body) throws Exception {
        return sendAs("alice", method, path, body);
    }

    Reply sendAs(String user, String method, String path, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + path))
                .timeout(Duration.ofSeconds(60)).header("X-Grove-User", user);
        request.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        JsonNode parsed = response.headers().firstValue("content-type").orElse("").startsWith("application/json")
                ? json.readTree(response.body()) : json.getNodeFactory().textNode(response.body());
        return new Reply(response.statusCode(), parsed);
    }

    Reply get(String path) throws Exception {
        return send("GET", path, null);
    }

    String submit(String pool, int jobs) throws Exception {
        Reply reply = send("POST", "/api/v1/operations", "pool: " + pool + "\ntasks:\n  main: {job_count: " + jobs
                + ", command: \"sleep 100\", cpu: 1, memory: 1Gi}\n");
        if (reply.status() != 201) {
            throw new AssertionError("submit failed: " + reply);
        }
        return reply.body().get("id").asText();
    }

    @Override
    public void close() {
        group.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS);
    }
}
