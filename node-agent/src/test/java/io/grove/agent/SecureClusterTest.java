package io.grove.agent;

import static io.grove.agent.ClusterFixture.await;
import static io.grove.agent.ClusterFixture.unchecked;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.grove.agent.job.ProcessJobRunner;
import io.grove.core.resource.Resources;
import io.grove.server.Clock;
import io.grove.server.DaemonSettings;
import io.grove.server.SchedulerDaemon;
import io.grove.server.security.Security;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A scheduler with tokens and a node token, and an agent that has it: who may read which logs. */
class SecureClusterTest {

    static final String NODE_TOKEN = "node-token-for-this-test-0123";
    static final String ALICE = "alice-token-for-this-test-0123";
    static final String BOB = "bob-token-for-this-test-012345";

    final HttpClient http = HttpClient.newHttpClient();
    final ObjectMapper json = new ObjectMapper();

    record Reply(int status, JsonNode body) {
    }

    Reply get(URI uri, String token) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).GET();
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        return new Reply(response.statusCode(), json.readTree(response.body()));
    }

    @Test
    void logsAreReadThroughTheSchedulerByTheirOwnersOnly(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("pools.yaml"), "admins: [carol]\n" + ClusterFixture.POOLS);
        Files.writeString(dir.resolve("tokens.yaml"), "tokens:\n  - {token: " + ALICE + ", user: alice}\n"
                + "  - {token: " + BOB + ", user: bob}\n");
        Files.writeString(dir.resolve("node-token"), NODE_TOKEN);
        DaemonSettings settings = DaemonSettings.defaults(dir.resolve("pools.yaml"), dir.resolve("data")).withPorts(0, 0)
                .withSecurity(new Security(false, dir.resolve("tokens.yaml"), dir.resolve("node-token"), null));
        try (SchedulerDaemon scheduler = SchedulerDaemon.start(settings, Clock.SYSTEM);
                AgentDaemon agent = AgentDaemon.start(AgentSettings.defaults("127.0.0.1", scheduler.nodePort(),
                        dir.resolve("agent"), new Resources(2, 2, 0, 4L << 30, 0)).withNodeId("n1").withPorts(0, 0)
                        .withNodeToken(NODE_TOKEN), ProcessJobRunner.system())) {
            agent.welcomed().get(30, TimeUnit.SECONDS);
            String api = "http://127.0.0.1:" + scheduler.httpPort() + "/api/v1";
            HttpResponse<String> created = http.send(HttpRequest.newBuilder(URI.create(api + "/operations"))
                    .header("Authorization", "Bearer " + ALICE).POST(HttpRequest.BodyPublishers.ofString(
                            "pool: prod\ntasks:\n  main: {job_count: 1, cpu: 1, memory: 64Mi, command: 'echo secret of alice'}\n"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(201, created.statusCode(), created.body());
            String op = json.readTree(created.body()).get("id").asText();
            await("the job to complete", unchecked(() ->
                    get(URI.create(api + "/operations/" + op), ALICE).body().get("state").asText().equals("completed")));
            String job = op + "-1";
            URI logs = URI.create(api + "/operations/" + op + "/jobs/" + job + "/logs?stream=stdout");

            Reply own = get(logs, ALICE);
            assertEquals(200, own.status(), own.body().toString());
            assertEquals("secret of alice\n", own.body().get("data").asText());
            Reply other = get(logs, BOB);
            assertEquals(403, other.status(), other.body().toString());
            assertTrue(other.body().get("message").asText().contains("may not read the logs of " + op + " of alice"));
            assertEquals(401, get(logs, null).status());

            URI direct = URI.create("http://127.0.0.1:" + agent.httpPort() + "/api/v1/jobs/" + job + "/logs");
            assertEquals(401, get(direct, null).status(), "the agent gives logs to the scheduler only");
            assertEquals(401, get(direct, ALICE).status());
            assertEquals(200, get(direct, NODE_TOKEN).status());

            // a job that fails with a secret on its stderr: its owner and the admins read it, bob does not
            HttpResponse<String> failing = http.send(HttpRequest.newBuilder(URI.create(api + "/operations"))
                    .header("Authorization", "Bearer " + ALICE).POST(HttpRequest.BodyPublishers.ofString(
                            "pool: prod\nmax_failed_job_count: 0\ntasks:\n  main: {job_count: 1, cpu: 1, memory: 64Mi, "
                                    + "command: 'echo password=hunter2 >&2; exit 3'}\n"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            String failed = json.readTree(failing.body()).get("id").asText();
            URI operation = URI.create(api + "/operations/" + failed);
            URI jobs = URI.create(api + "/operations/" + failed + "/jobs");
            await("the job to fail", unchecked(() -> get(operation, ALICE).body().get("state").asText().equals("failed")));
            assertTrue(get(operation, ALICE).body().get("message").asText().contains("password=hunter2"));
            assertTrue(get(jobs, ALICE).body().get(0).get("message").asText().contains("password=hunter2"));
            String seenByBob = get(operation, BOB).body().toString() + get(jobs, BOB).body().toString();
            assertTrue(!seenByBob.contains("hunter2") && seenByBob.contains("exit code 3")
                    && seenByBob.contains("withheld"), seenByBob);
        }
    }
}
