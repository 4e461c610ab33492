package io.grove.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.protocol.HeartbeatReply;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Pausing, draining and resuming a pool through the API: by its administrators, durable, and said. */
class PoolPauseDaemonTest {

    static final String POOLS = """
            admins: [root]
            default_tree: physical
            pool_trees:
              physical:
                pools:
                  research:
                    acl: {administer: [alice]}
                    pools:
                      nlp: {}
                  prod: {}
            """;

    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-11-27T10:00:00Z"));

    private SchedulerDaemon start(Path dir) throws Exception {
        return DaemonFixture.startByHand(dir, POOLS, now::get);
    }

    static final String PAUSE = "/api/v1/pool_trees/physical/pools/research/pause";
    static final String RESUME = "/api/v1/pool_trees/physical/pools/research/resume";

    @Test
    void aPausedPoolStartsNothingTillResumedAndThePauseSurvivesARestart(@TempDir Path dir) throws Exception {
        String op;
        try (SchedulerDaemon daemon = start(dir);
                DaemonFixture users = new DaemonFixture().at(daemon.httpPort(), daemon.nodePort());
                DaemonFixture.FakeNode node = users.node("n1", 4)) {
            node.handshake();
            daemon.updateFairShare();
            DaemonFixture.Reply refused = users.sendAs("bob", "POST", PAUSE, null);
            assertEquals(403, refused.status(), refused.toString());
            DaemonFixture.Reply paused = users.sendAs("alice", "POST", PAUSE, null);
            assertEquals(200, paused.status(), paused.toString());
            assertEquals("research", paused.body().at("/paused/pool").asText());
            assertEquals("alice", paused.body().at("/paused/by").asText());

            op = users.submit("nlp", 2);
            daemon.updateFairShare();
            assertEquals(0, node.heartbeat().jobsToStart().size(), "nothing starts below the paused pool");
            DaemonFixture.Reply summary = users.get("/api/v1/operations/" + op);
            assertEquals("pool_paused", summary.body().at("/pending_reason/code").asText(), summary.toString());
            assertEquals("research", summary.body().at("/pending_reason/pool").asText());
            DaemonFixture.Reply explained = users.get("/api/v1/operations/" + op + "/explain");
            assertEquals("pool_paused", explained.body().at("/trees/0/verdict").asText(), explained.toString());
            assertEquals("research", users.get("/api/v1/pool_trees/physical/pools/nlp").body().at("/paused/pool").asText(),
                    "a child shows the pause that holds it");
        }
        try (SchedulerDaemon daemon = start(dir);
                DaemonFixture users = new DaemonFixture().at(daemon.httpPort(), daemon.nodePort());
                DaemonFixture.FakeNode node = users.node("n1", 4)) {
            node.handshake();
            daemon.updateFairShare();
            assertEquals(0, node.heartbeat().jobsToStart().size(), "still paused after a restart");
            assertEquals("research", users.get("/api/v1/pool_trees/physical/pools/research").body().at("/paused/pool")
                    .asText());
            DaemonFixture.Reply resumed = users.sendAs("root", "POST", RESUME, null);
            assertEquals(200, resumed.status(), resumed.toString());
            assertTrue(resumed.body().path("paused").isMissingNode() || resumed.body().path("paused").isNull());
            assertEquals(2, node.heartbeat().jobsToStart().size(), "resumed: its jobs start at once");
            assertEquals(409, users.sendAs("root", "POST", RESUME, null).status(), "not paused any more");
        }
    }

    @Test
    void aDrainStopsThePoolsRunningJobsGracefully(@TempDir Path dir) throws Exception {
        try (SchedulerDaemon daemon = start(dir);
                DaemonFixture users = new DaemonFixture().at(daemon.httpPort(), daemon.nodePort());
                DaemonFixture.FakeNode node = users.node("n1", 4)) {
            node.handshake();
            users.submit("nlp", 2);
            daemon.updateFairShare();
            assertEquals(2, node.heartbeat().jobsToStart().size());
            DaemonFixture.Reply drained = users.sendAs("alice", "POST", PAUSE, "{\"drain\": true}");
            assertEquals(200, drained.status(), drained.toString());
            assertTrue(drained.body().at("/paused/drain").asBoolean());
            HeartbeatReply reply = node.heartbeat();
            assertEquals(2, reply.jobsToInterrupt().size(), reply.toString());
            assertEquals("pool_drained", reply.jobsToInterrupt().get(0).reason());
            assertEquals(400, users.sendAs("alice", "POST", PAUSE, "{\"drain\": \"soon\"}").status());
        }
    }
}
