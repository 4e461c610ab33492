package io.grove.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.grove.protocol.HeartbeatReply;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Draining and undraining a node through the API: by the cluster's admins, durable, and shown with the node. */
class NodeDrainDaemonTest {

    static final String POOLS = """
            admins: [root]
            default_tree: physical
            pool_trees:
              physical:
                pools:
                  research: {acl: {administer: [alice]}}
            """;

    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-11-28T10:00:00Z"));

    private SchedulerDaemon start(Path dir) throws Exception {
        return DaemonFixture.startByHand(dir, POOLS, now::get);
    }

    static final String DRAIN = "/api/v1/nodes/n1/drain";
    static final String UNDRAIN = "/api/v1/nodes/n1/undrain";

    static JsonNode nodeOf(DaemonFixture users, String id) throws Exception {
        for (JsonNode node : users.get("/api/v1/nodes").body()) {
            if (node.path("id").asText().equals(id)) {
                return node;
            }
        }
        throw new AssertionError("no node " + id);
    }

    @Test
    void aDrainedNodeStartsNothingTillUndrainedAndTheDrainSurvivesARestart(@TempDir Path dir) throws Exception {
        try (SchedulerDaemon daemon = start(dir);
                DaemonFixture users = new DaemonFixture().at(daemon.httpPort(), daemon.nodePort());
                DaemonFixture.FakeNode node = users.node("n1", 4)) {
            node.handshake();
            daemon.updateFairShare();
            assertEquals(403, users.sendAs("alice", "POST", DRAIN, null).status(), "a pool's admin is not the cluster's");
            assertEquals(404, users.sendAs("root", "POST", "/api/v1/nodes/nope/drain", null).status());
            assertEquals(400, users.sendAs("root", "POST", DRAIN, "{\"now\": \"soon\"}").status());
            assertEquals(400, users.sendAs("root", "POST", DRAIN, "{\"reason\": \"a\\u0007b\"}").status(),
                    "a reason with a control character");
            assertEquals(400, users.sendAs("root", "POST", DRAIN, "{\"reason\": \"" + "x".repeat(501) + "\"}").status());
            assertFalse(nodeOf(users, "n1").has("drained"), "refusals drained nothing");

            DaemonFixture.Reply drained = users.sendAs("root", "POST", DRAIN, "{\"reason\": \"new disks\"}");
            assertEquals(200, drained.status(), drained.toString());
            assertEquals("root", drained.body().at("/drained/by").asText());
            assertEquals("new disks", drained.body().at("/drained/reason").asText());
            assertFalse(drained.body().at("/drained/now").asBoolean());

            users.submit("research", 2);
            daemon.updateFairShare();
            assertEquals(0, node.heartbeat().jobsToStart().size(), "nothing starts on a drained node");
            JsonNode listed = nodeOf(users, "n1");
            assertEquals("new disks", listed.at("/drained/reason").asText());
            assertTrue(listed.path("unschedulable").asText().contains("drained by root"), listed.toString());
        }
        try (SchedulerDaemon daemon = start(dir);
                DaemonFixture users = new DaemonFixture().at(daemon.httpPort(), daemon.nodePort());
                DaemonFixture.FakeNode node = users.node("n1", 4)) {
            node.handshake();
            daemon.updateFairShare();
            assertEquals(0, node.heartbeat().jobsToStart().size(), "still drained after a restart");
            assertEquals("new disks", nodeOf(users, "n1").at("/drained/reason").asText());
            assertEquals(403, users.sendAs("alice", "POST", UNDRAIN, null).status());
            DaemonFixture.Reply undrained = users.sendAs("root", "POST", UNDRAIN, null);
            assertEquals(200, undrained.status(), undrained.toString());
            assertTrue(undrained.body().path("drained").isMissingNode() || undrained.body().path("drained").isNull());
            assertEquals(2, node.heartbeat().jobsToStart().size(), "undrained: the jobs start at once");
            assertEquals(409, users.sendAs("root", "POST", UNDRAIN, null).status(), "not drained any more");
        }
    }

    @Test
    void drainedNowItsRunningJobsAreStoppedGracefully(@TempDir Path dir) throws Exception {
        try (SchedulerDaemon daemon = start(dir);
                DaemonFixture users = new DaemonFixture().at(daemon.httpPort(), daemon.nodePort());
                DaemonFixture.FakeNode node = users.node("n1", 4)) {
            node.handshake();
            users.submit("research", 2);
            daemon.updateFairShare();
            assertEquals(2, node.heartbeat().jobsToStart().size());
            DaemonFixture.Reply drained = users.sendAs("root", "POST", DRAIN, "{\"now\": true}");
            assertEquals(200, drained.status(), drained.toString());
            assertTrue(drained.body().at("/drained/now").asBoolean());
            HeartbeatReply reply = node.heartbeat();
            assertEquals(2, reply.jobsToInterrupt().size(), reply.toString());
            assertEquals("node_drained", reply.jobsToInterrupt().get(0).reason());
            assertEquals(0, node.heartbeat().jobsToInterrupt().size(), "told once");
        }
    }
}
