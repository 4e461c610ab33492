package io.grove.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.grove.agent.job.ProcessJobRunner;
import io.grove.core.resource.Resources;
import io.grove.server.ha.HaScheduler;
import io.grove.server.ha.HaGroup;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An agent given both schedulers of a high-availability group follows the leader: when the leader
 * stops, it reconnects to the new one and reports its running jobs, which are kept — no job index
 * starts again while it runs.
 */
class HaAgentTest {

    final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    final ObjectMapper json = new ObjectMapper();


    JsonNode get(int port, String path) {
        try {
            return json.readTree(http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                    HttpResponse.BodyHandlers.ofString()).body());
        } catch (Exception e) {
            return json.createObjectNode();
        }
    }

    static void await(String what, BooleanSupplier condition) {
        ClusterFixture.await(what, condition);
    }

    /** Job indexes running now, each with its attempt. */
    TreeSet<String> running(int port, String operation) {
        TreeSet<String> running = new TreeSet<>();
        get(port, "/api/v1/operations/" + operation + "/jobs").forEach(job -> {
            if (job.path("state").asText().equals("running")) {
                running.add(job.get("index").asInt() + "#" + job.get("attempt").asInt());
            }
        });
        return running;
    }

    @Test
    void anAgentFollowsTheLeaderAndItsRunningJobsAreKept(@TempDir Path dir) throws Exception {
        try (TestingServer zookeeper = new TestingServer(true); HaGroup group = HaGroup.in(dir, ClusterFixture.POOLS)) {
            HaScheduler a = group.join("a", zookeeper.getConnectString()).scheduler();
            await("a leads", a::isLeader);
            HaScheduler b = group.join("b", zookeeper.getConnectString()).scheduler();
            AgentSettings settings = AgentSettings.defaults("127.0.0.1", a.nodePort(), dir.resolve("agent"),
                    new Resources(4, 4, 0, 4L << 30, 0)).withNodeId("n1").withPorts(0, 0)
                    .withTimings(Duration.ofMillis(200), Duration.ofMillis(50)).toBuilder()
                    .otherSchedulers(List.of("127.0.0.1:" + b.nodePort())).build();
            try (AgentDaemon agent = AgentDaemon.start(settings, ProcessJobRunner.system())) {
                HttpResponse<String> created = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + a.httpPort()
                        + "/api/v1/operations")).header("X-Grove-User", "alice").POST(HttpRequest.BodyPublishers.ofString(
                        "{\"pool\": \"prod\", \"tasks\": {\"main\": {\"job_count\": 4, \"cpu\": 1, \"memory\": \"64Mi\", "
                                + "\"command\": \"sleep 60\"}}}")).build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(201, created.statusCode(), created.body());
                String id = json.readTree(created.body()).get("id").asText();
                await("4 jobs run on a", () -> running(a.httpPort(), id).size() == 4);
                ClusterFixture.awaitStarted(agent, 4);
                TreeSet<String> before = running(a.httpPort(), id);

                a.close();
                await("b leads", b::isLeader);
                await("n1 is back, on b", () -> get(b.httpPort(), "/api/v1/nodes").path(0).path("state").asText().equals("online"));
                await("b keeps the 4 jobs n1 reports", () -> running(b.httpPort(), id).equals(before));
                JsonNode op = get(b.httpPort(), "/api/v1/operations/" + id);
                assertEquals(4, op.at("/progress/running").asInt());
                assertEquals(0, op.at("/progress/aborted").asInt(), "no job was aborted and started again");
            } finally {
                b.close();
                a.close();
            }
        }
    }

    @Test
    void aStandbyTellsTheAgentWhereTheLeaderIs(@TempDir Path dir) throws Exception {
        try (TestingServer zookeeper = new TestingServer(true); HaGroup group = HaGroup.in(dir, ClusterFixture.POOLS)) {
            try (HaScheduler a = group.join("a", zookeeper.getConnectString()).scheduler()) {
                await("a leads", a::isLeader);
                try (HaScheduler b = group.join("b", zookeeper.getConnectString()).scheduler()) {
                    await("b knows the leader", () -> get(b.httpPort(), "/healthz").path("leader").asText()
                            .equals("http://127.0.0.1:" + a.httpPort()));
                    // the standby first: it answers not_leader with the leader's node endpoint, which is followed
                    AgentSettings settings = AgentSettings.defaults("127.0.0.1", b.nodePort(), dir.resolve("agent"),
                            new Resources(2, 2, 0, 2L << 30, 0)).withNodeId("n2").withPorts(0, 0)
                            .withTimings(Duration.ofMillis(200), Duration.ofMillis(50)).toBuilder()
                            .otherSchedulers(List.of("127.0.0.1:" + a.nodePort())).build();
                    try (AgentDaemon agent = AgentDaemon.start(settings, ProcessJobRunner.system())) {
                        await("n2 registers with the leader", () -> get(a.httpPort(), "/api/v1/nodes").path(0).path("id").asText()
                                .equals("n2"));
                    }
                }
            }
        }
    }
}
