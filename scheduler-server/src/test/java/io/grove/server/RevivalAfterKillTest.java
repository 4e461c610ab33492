package io.grove.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.grove.protocol.HeartbeatReply;
import io.grove.protocol.Welcome;
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

    private DaemonProcess daemon;
    private int httpPort;
    private int nodePort;

    private void startDaemon(Path config, Path data) throws Exception {
        daemon = DaemonProcess.start(config, data);
        httpPort = daemon.httpPort;
        nodePort = daemon.nodePort;
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

            daemon.kill();
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
            daemon.kill();
        }
    }
}
