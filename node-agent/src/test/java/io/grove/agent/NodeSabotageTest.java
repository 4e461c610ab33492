package io.grove.agent;

import static io.grove.agent.ClusterFixture.await;
import static io.grove.agent.ClusterFixture.unchecked;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.grove.agent.job.JobUsers;
import io.grove.agent.job.WorkDir;
import io.grove.agent.net.BrokerTokens;
import io.grove.protocol.broker.BrokerClient;
import io.grove.protocol.broker.BrokerMessage;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job that tries to take its node over, run by a real agent (as root, as its systemd unit ships
 * it) for a real scheduler: it cannot read the broker's tokens, and the broker refuses it.
 */
class NodeSabotageTest {

    /** Bash that sends one frame of JSON to the broker port and prints what comes back. */
    private static String sendFrame(int port, String json) {
        return "exec 3<>/dev/tcp/127.0.0.1/" + port + "; body='" + json + "'; "
                + "printf \"\\\\x00\\\\x00\\\\x$(printf %02x $((${#body} >> 8)))\\\\x$(printf %02x $((${#body} & 255)))%s\" \"$body\" >&3; "
                + "timeout 5 cat <&3 | tr -d '\\000-\\010'; echo";
    }

    @Test
    void aJobCanNeitherReadTheBrokersTokensNorConfigureOrHoldItsTasks(@TempDir Path dir) throws Exception {
        Assumptions.assumeTrue(JobUsers.processIsRoot(), "jobs run as other users only under a root agent");
        Path folder = ClusterFixture.openFolder();
        try (ClusterFixture cluster = new ClusterFixture(folder); AgentDaemon agent = cluster.agent("n1", 2)) {
            agent.welcomed().get(30, TimeUnit.SECONDS);
            Path work = folder.resolve("n1");
            String configure = "{\"type\":\"configure\",\"resource_limit\":{\"cpu\":0.001},"
                    + "\"queues\":[{\"name\":\"q\",\"weight\":1}],\"task_types\":[{\"name\":\"unknown\",\"queue\":\"q\"}]}";
            String hold = "{\"type\":\"submit\",\"task_id\":1,\"resources\":{\"cpu\":1.8},\"task_type\":\"transaction\"}";
            String guess = "{\"type\":\"hello\",\"token\":\"0123456789abcdef0123\"}";
            String op = cluster.submit(1, 1, "cat " + work.resolve(BrokerTokens.CLIENT_FILE) + " "
                    + work.resolve(BrokerTokens.ADMIN_FILE) + "; "
                    + sendFrame(agent.brokerPort(), configure) + "; " + sendFrame(agent.brokerPort(), hold) + "; "
                    + sendFrame(agent.brokerPort(), guess) + "; exit 0");
            await("the job to end", unchecked(() -> cluster.state(op).equals("completed")));
            String jobId = cluster.jobs(op).get(0).get("id").asText();
            WorkDir workDir = new WorkDir(work, true);
            // the frames' length prefixes are binary
            String out = new String(Files.readAllBytes(workDir.log(jobId, "stdout").orElseThrow()),
                    java.nio.charset.StandardCharsets.ISO_8859_1);
            String err = Files.readString(workDir.log(jobId, "stderr").orElseThrow());
            assertTrue(err.contains(BrokerTokens.CLIENT_FILE + ": Permission denied")
                    && err.contains(BrokerTokens.ADMIN_FILE + ": Permission denied"), err);
            BrokerTokens tokens = agent.brokerTokens();
            assertFalse(out.contains(tokens.client()) || out.contains(tokens.admin()), out);
            assertEquals(3, out.split("\"code\":\"unauthenticated\"", -1).length - 1, "every frame refused: " + out);

            JsonNode broker = cluster.get(URI.create("http://127.0.0.1:" + agent.httpPort() + "/api/v1/broker"));
            assertTrue(broker.get("tasks").isEmpty(), "the job holds no broker task: " + broker);
            assertEquals(10.0, broker.get("resource_limit").get("cpu").asDouble(), "the broker's limit is unchanged");
            await("the node to offer its 2 cpu", unchecked(() ->
                    cluster.get("/api/v1/nodes").get(0).get("resource_limits").get("cpu").asDouble() == 2.0));
        } finally {
            deleteTree(folder);
        }
    }

    @Test
    void aServiceWithTheClientTokenMayNotConfigureAndAWrongTokenIsRefused(@TempDir Path dir) throws Exception {
        try (ClusterFixture cluster = new ClusterFixture(dir); AgentDaemon agent = cluster.agent("n1", 1)) {
            IOException wrong = org.junit.jupiter.api.Assertions.assertThrows(IOException.class,
                    () -> BrokerClient.connect("127.0.0.1", agent.brokerPort(), "not-the-token-of-this-node", m -> { }));
            assertTrue(wrong.getMessage().contains("the token is not this node's broker token"), wrong.getMessage());
            try (BrokerClient client = BrokerClient.connect("127.0.0.1", agent.brokerPort(), agent.brokerTokens().client(),
                    m -> { })) {
                BrokerMessage.ConfigureResult refused = client.configure(new BrokerMessage.Configure(
                        new BrokerMessage.Amounts(0.001, null), List.of(new BrokerMessage.Queue("q", 1, null)),
                        List.of(new BrokerMessage.TaskType("unknown", "q", 0)))).get(30, TimeUnit.SECONDS);
                assertFalse(refused.success());
                assertTrue(refused.message().contains("admin token"), refused.message());
            }
            Path token = dir.resolve("n1").resolve(BrokerTokens.CLIENT_FILE);
            assertEquals("rw-------", JobIsolationTest.mode(token));
            Files.setPosixFilePermissions(token, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
            IOException open = org.junit.jupiter.api.Assertions.assertThrows(IOException.class,
                    () -> BrokerTokens.inDirectory(dir.resolve("n1")));
            assertTrue(open.getMessage().contains("jobs could read or change the broker's token"), open.getMessage());
        }
    }

    static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (var walk = Files.walk(root)) {
            for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
