package io.grove.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.grove.protocol.ErrorCode;
import io.grove.protocol.ErrorReply;
import io.grove.protocol.HeartbeatReply;
import io.grove.protocol.Message;
import io.grove.protocol.NodeHeartbeat;
import io.grove.protocol.Welcome;
import io.grove.testing.Await;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node cut off by a partition comes back on a new connection, while its old one may stay open
 * at the scheduler and deliver its last frames late: those bring nothing back, and the new
 * connection is taken as the node's.
 */
class NodeReturnDaemonTest {

    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-11-29T10:00:00Z"));

    private SchedulerDaemon start(Path dir) throws Exception {
        return DaemonFixture.startByHand(dir, DaemonFixture.POOLS, now::get);
    }

    @Test
    void aLostNodesLateHeartbeatIsRefusedAndOnItsReturnItIsToldToKillWhatItStillRuns(@TempDir Path dir)
            throws Exception {
        try (SchedulerDaemon daemon = start(dir);
                DaemonFixture users = new DaemonFixture().at(daemon.httpPort(), daemon.nodePort());
                DaemonFixture.FakeNode away = users.node("away", 2);
                DaemonFixture.FakeNode other = users.node("other", 2)) {
            away.handshake();
            other.handshake();
            String op = users.submit("prod", 2);
            daemon.updateFairShare();
            assertEquals(2, away.heartbeat().jobsToStart().size());
            now.set(now.get().plusSeconds(601));   // past the registration timeout (600 s)
            other.heartbeat();
            daemon.checkNodes();
            assertEquals(2, users.get("/api/v1/operations/" + op).body().at("/progress/aborted").asInt(),
                    "the lost node's jobs were ended");

            // its old connection delivers a heartbeat late: refused, and the connection closed
            Message late = away.client.request(NodeHeartbeat.delta("away", away.limits, null, List.of(), List.of()),
                    DaemonFixture.TIMEOUT).get();
            ErrorReply refused = assertInstanceOf(ErrorReply.class, late, String.valueOf(late));
            assertEquals(ErrorCode.HANDSHAKE_REQUIRED, refused.code());
            assertTrue(refused.fatal() && refused.message().contains("declared lost"), refused.message());
            Await.until("the old connection closed", () -> !away.client.isOpen());
            assertEquals(1, users.get("/api/v1/nodes").body().size(), "the late heartbeat brought no node back");
            daemon.updateFairShare();
            assertEquals(2, other.heartbeat().jobsToStart().size(), "the jobs run again on the other node");

            // back with a handshake and the jobs it still runs: told to kill them, in deltas too
            try (DaemonFixture.FakeNode back = users.node("away", 2)) {
                back.running.putAll(away.running);
                assertInstanceOf(Welcome.class, back.handshake());
                HeartbeatReply told = back.delta(List.of(), List.of());
                assertEquals(away.running.keySet(), told.jobsToAbort().stream().map(HeartbeatReply.JobToAbort::jobId)
                        .collect(Collectors.toSet()));
                assertEquals(0, told.jobsToStart().size());
            }
        }
    }

    @Test
    void aNewConnectionTakesTheIdOfOneSilentPastTheHeartbeatTimeoutNotSooner(@TempDir Path dir) throws Exception {
        try (SchedulerDaemon daemon = start(dir);
                DaemonFixture users = new DaemonFixture().at(daemon.httpPort(), daemon.nodePort());
                DaemonFixture.FakeNode first = users.node("n1", 2)) {
            first.handshake();
            first.heartbeat();
            now.set(now.get().plusSeconds(59));
            try (DaemonFixture.FakeNode early = users.node("n1", 2)) {
                ErrorReply refused = assertInstanceOf(ErrorReply.class, early.handshake());
                assertEquals(ErrorCode.NODE_ID_IN_USE, refused.code(), "heard from 59 s ago: still the node's");
            }
            now.set(now.get().plusSeconds(2));   // silent 61 s: past the heartbeat timeout (60 s)
            try (DaemonFixture.FakeNode back = users.node("n1", 2)) {
                assertInstanceOf(Welcome.class, back.handshake());
                Await.until("the silent connection closed", () -> !first.client.isOpen());
                Path audit = dir.resolve("data").resolve("audit.log");
                Await.until("the takeover audited", () -> {
                    try {
                        return Files.exists(audit) && Files.readString(audit).contains("silent for 61 s");
                    } catch (IOException e) {
                        return false;
                    }
                });
                back.heartbeat();
                JsonNode node = users.get("/api/v1/nodes").body().get(0);
                assertEquals("n1", node.get("id").asText());
                assertEquals("online", node.get("state").asText(), "the new connection is the node's");
            }
        }
    }
}
