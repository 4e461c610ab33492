package io.grove.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.grove.protocol.HeartbeatReply;
import io.grove.protocol.Welcome;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The daemon as its own process, killed with SIGKILL mid-run and started again on the same data
 * directory: every acknowledged submission is back, completed jobs stay completed, the pending
 * operation keeps its place, the node's running jobs are re-adopted, and no job index runs twice.
 */
class RevivalAfterKillTest {

    private Process daemon;
    private int httpPort;
    private int nodePort;

    private void startDaemon(Path config, Path data) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        daemon = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), SchedulerMain.class.getName(),
                "--config", config.toString(), "--data-dir", data.toString(), "--node-port", "0", "--http-port", "0",
                "--fair-share-update-period-ms", "50")
                .redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(daemon.getInputStream(), StandardCharsets.UTF_8));
        String line;
        StringBuilder seen = new StringBuilder();
        while ((line = out.readLine()) != null) {
            seen.append(line).append('\n');
            if (line.startsWith("ready ")) {
                for (String part : line.split(" ")) {
                    if (part.startsWith("node_port=")) {
                        nodePort = Integer.parseInt(part.substring(10));
                    } else if (part.startsWith("http_port=")) {
                        httpPort = Integer.parseInt(part.substring(10));
                    }
                }
                Thread drain = new Thread(() -> out.lines().forEach(l -> { }), "daemon-output");
                drain.setDaemon(true);
                drain.start();
                return;
            }
        }
        throw new AssertionError("the daemon did not start:\n" + seen);
    }

    /** Heartbeats until the daemon has published a fair share and starts jobs (bounded, no sleeping). */
    private static HeartbeatReply heartbeatUntilStarts(DaemonFixture.FakeNode node, int expected) throws Exception {
        HeartbeatReply reply = null;
        int started = 0;
        for (int i = 0; i < 20_000 && started < expected; i++) {
            reply = node.heartbeat();
            started += reply.jobsToStart().size();
        }
        assertEquals(expected, started, "jobs started");
        return reply;
    }

    @Test
    void killNineThenRestart(@TempDir Path dir) throws Exception {
        Path config = DaemonFixture.config(dir, DaemonFixture.POOLS);
        Path data = dir.resolve("data");
        startDaemon(config, data);
        DaemonFixture users = new DaemonFixture();
        try {
            users.at(httpPort, nodePort);
            DaemonFixture.FakeNode node = users.node("n1", 4);
            assertInstanceOf(Welcome.class, node.handshake());
            String big = users.submit("prod", 6);
            String first = users.submit("adhoc", 1);
            String queued = users.submit("adhoc", 1);
            heartbeatUntilStarts(node, 4);
            String done = node.running.keySet().iterator().next();
            node.complete(done);
            node.heartbeat();
            JsonNode before = users.get("/api/v1/operations/" + big).body().get("progress");
            Set<String> runningBefore = new HashSet<>(node.running.keySet());

            daemon.destroyForcibly().waitFor();
            node.close();

            startDaemon(config, data);
            users.at(httpPort, nodePort);
            DaemonFixture.FakeNode back = users.node("n1", 4);
            back.running.putAll(node.running);
            assertInstanceOf(Welcome.class, back.handshake());
            JsonNode after = users.get("/api/v1/operations/" + big).body().get("progress");
            assertEquals(before.get("completed").asInt(), after.get("completed").asInt(), "completed jobs stay completed");
            assertEquals(1, after.get("completed").asInt());
            for (String id : List.of(big, first, queued)) {
                assertEquals(200, users.get("/api/v1/operations/" + id).status(), id + " was acknowledged, so it is back");
            }
            JsonNode waiting = users.get("/api/v1/operations/" + queued).body();
            assertEquals("pending", waiting.get("state").asText());
            assertEquals(1, waiting.get("pending_reason").get("queue_position").asInt());

            for (int i = 0; i < 20_000 && users.get("/api/v1/pool_trees/physical/pools").status() != 200; i++) {
                Thread.onSpinWait();
            }
            HeartbeatReply reply = back.heartbeat();
            assertEquals(List.of(), reply.jobsToAbort(), "re-adopted jobs are not aborted");
            assertEquals(runningBefore, Set.copyOf(back.running.keySet().stream().filter(runningBefore::contains).toList()));
            Set<String> indexes = new HashSet<>();
            for (HeartbeatReply.JobToStart job : back.running.values()) {
                assertTrue(indexes.add(job.operationId() + "/" + job.task() + "#" + job.index()),
                        "job index running twice: " + job);
            }
            back.close();
        } finally {
            users.close();
            daemon.destroyForcibly().waitFor();
        }
    }
}
