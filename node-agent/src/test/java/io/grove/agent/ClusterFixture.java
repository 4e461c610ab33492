package io.grove.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.grove.agent.job.ProcessJobRunner;
import io.grove.core.resource.Resources;
import io.grove.server.Clock;
import io.grove.server.DaemonSettings;
import io.grove.server.SchedulerDaemon;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;

/** A real scheduler daemon and real agents on loopback, and the HTTP calls users make. */
final class ClusterFixture implements AutoCloseable {

    static final String POOLS = """
            default_tree: physical
            pool_trees:
              physical:
                pools:
                  prod: {weight: 1}
            """;

    final Path dir;
    final HttpClient http = HttpClient.newHttpClient();
    final ObjectMapper json = new ObjectMapper();
    SchedulerDaemon scheduler;
    int nodePort;
    int httpPort;

    ClusterFixture(Path dir) throws Exception {
        this.dir = dir;
        Files.writeString(dir.resolve("pools.yaml"), POOLS);
        startScheduler(0, 0);
    }

    void startScheduler(int node, int api) throws Exception {
        DaemonSettings settings = DaemonSettings.defaults(dir.resolve("pools.yaml"), dir.resolve("data"))
                .withPorts(node, api).withPeriods(Duration.ofMillis(200), Duration.ofMillis(100));
        scheduler = SchedulerDaemon.start(settings, Clock.SYSTEM);
        nodePort = scheduler.nodePort();
        httpPort = scheduler.httpPort();
    }

    AgentSettings agentSettings(String name, double cpu) {
        return AgentSettings.defaults("127.0.0.1", nodePort, dir.resolve(name),
                new Resources(Math.max(1, Math.floor(cpu)), cpu, 0, 4L << 30, 0)).withNodeId(name).withPorts(0, 0)
                .withTimings(Duration.ofMillis(200), Duration.ofMillis(50));
    }

    AgentDaemon agent(String name, double cpu) throws Exception {
        return AgentDaemon.start(agentSettings(name, cpu), ProcessJobRunner.system());
    }

    String submit(int jobs, double cpu, String command) throws Exception {
        String spec = "pool: prod\ntasks:\n  main: {job_count: " + jobs + ", cpu: " + cpu + ", memory: 64Mi, command: "
                + json.writeValueAsString(command) + "}\n";
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(api("/api/v1/operations"))
                .header("X-Grove-User", "alice").POST(HttpRequest.BodyPublishers.ofString(spec)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() / 100 != 2) {
            throw new AssertionError("submit refused: " + response.body());
        }
        return json.readTree(response.body()).get("id").asText();
    }

    JsonNode get(String path) throws Exception {
        return get(api(path));
    }

    JsonNode get(URI uri) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        return json.readTree(response.body());
    }

    JsonNode operation(String id) throws Exception {
        return get("/api/v1/operations/" + id);
    }

    URI api(String path) {
        return URI.create("http://127.0.0.1:" + httpPort + path);
    }

    /**
     * A fresh folder that jobs can write to: when the tests run as root, jobs run as an
     * unprivileged user, who cannot reach the tests' private temporary folders, in a /tmp of their own.
     */
    static Path openFolder() throws java.io.IOException {
        // as root, jobs have their own /tmp and /var/tmp: a folder shared with them is elsewhere
        Path folder = Files.createTempDirectory(Path.of(io.grove.agent.job.JobUsers.processIsRoot() ? "/run" : "/tmp"),
                "grove-test-");
        // open to all, and sticky as /tmp: no one moves another's entries (the agent checks)
        Files.setAttribute(folder, "unix:mode", 01777);
        return folder;
    }

    /**
     * A fake {@code nvidia-smi} in {@code dir} that tells two A100s (indices 0 and 1, UUIDs
     * {@code GPU-0000aaaa} and {@code GPU-1111bbbb}) and their utilization.
     */
    static Path fakeNvidiaSmi(Path dir) throws java.io.IOException {
        Path smi = dir.resolve("nvidia-smi");
        Files.writeString(smi, "#!/bin/sh\ncase \"$1\" in --query-gpu=index,uuid,*) "
                + "echo '0, GPU-0000aaaa, NVIDIA A100-SXM4-80GB, 81920, 00000000:3B:00.0'; "
                + "echo '1, GPU-1111bbbb, NVIDIA A100-SXM4-80GB, 81920, 00000000:5E:00.0';; "
                + "*) echo '0, 10, 100'; echo '1, 20, 200';; esac\n");
        Files.setPosixFilePermissions(smi, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        return smi;
    }

    /** Waits up to 30 s for something real processes and sockets do. */
    static void await(String what, BooleanSupplier condition) {
        io.grove.testing.Await.until(what, condition);
    }

    /**
     * Awaits {@code count} job processes started on the agent. A scheduler shows a job running as
     * soon as it decides; the node hears of it only after the start is written, so a test that
     * stops the scheduler under running jobs awaits them here.
     */
    static void awaitStarted(AgentDaemon agent, int count) {
        await(count + " job processes started on " + agent.nodeId(), () -> {
            var started = agent.metrics().registry().find("grove_agent_jobs_started").counter();
            return started != null && started.count() == count;
        });
    }

    /** A condition whose exceptions mean "not yet" (a server still starting). */
    static BooleanSupplier unchecked(Check check) {
        return io.grove.testing.Await.retrying(check::test);
    }

    interface Check {
        boolean test() throws Exception;
    }

    String state(String op) throws Exception {
        return operation(op).get("state").asText();
    }

    List<JsonNode> jobs(String op) throws Exception {
        List<JsonNode> list = new java.util.ArrayList<>();
        get("/api/v1/operations/" + op + "/jobs").forEach(list::add);
        return list;
    }

    @Override
    public void close() {
        if (scheduler != null) {
            scheduler.close();
        }
    }
}
