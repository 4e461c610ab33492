package io.grove.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** depends_on through the API: checked at submission, said while it waits, kept across a restart, and aborted with why. */
class DependencyDaemonTest {

    static final String POOLS = """
            admins: [root]
            default_tree: physical
            pool_trees:
              physical:
                pools:
                  research: {}
            """;

    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-11-28T10:00:00Z"));

    private SchedulerDaemon start(Path dir) throws Exception {
        return DaemonFixture.startByHand(dir, POOLS, now::get);
    }

    static String spec(String after, String condition) {
        return "pool: research\ndepends_on: [{operation: " + after + (condition == null ? "" : ", condition: " + condition)
                + "}]\ntasks:\n  main: {job_count: 1, command: x, cpu: 1, memory: 1Gi}\n";
    }

    @Test
    void itIsCheckedAtSubmissionWaitsSayingForWhatAcrossARestartAndRunsOnceItCompletes(@TempDir Path dir)
            throws Exception {
        String a;
        String b;
        try (SchedulerDaemon daemon = start(dir);
                DaemonFixture users = new DaemonFixture().at(daemon.httpPort(), daemon.nodePort());
                DaemonFixture.FakeNode node = users.node("n1", 4)) {
            node.handshake();
            DaemonFixture.Reply first = users.sendAs("alice", "POST", "/api/v1/operations",
                    "pool: research\ntasks:\n  main: {job_count: 1, command: x, cpu: 1, memory: 1Gi}\n");
            a = first.body().get("id").asText();
            DaemonFixture.Reply unknown = users.sendAs("alice", "POST", "/api/v1/operations", spec("op-99", null));
            assertEquals(400, unknown.status(), unknown.toString());
            assertTrue(unknown.body().get("message").asText().contains("no operation op-99"), unknown.toString());
            DaemonFixture.Reply foreign = users.sendAs("bob", "POST", "/api/v1/operations", spec(a, null));
            assertEquals(403, foreign.status(), foreign.toString());
            assertEquals("FOREIGN_OPERATION", foreign.body().get("code").asText());
            assertEquals(400, users.sendAs("alice", "POST", "/api/v1/operations", spec(a, "sometime")).status(),
                    "a condition is completed or finished");
            DaemonFixture.Reply second = users.sendAs("alice", "POST", "/api/v1/operations", spec(a, "completed"));
            assertEquals(201, second.status(), second.toString());
            b = second.body().get("id").asText();
            assertEquals(201, users.sendAs("root", "POST", "/api/v1/operations", spec(a, "finished")).status(),
                    "an admin may wait for anyone's operation");

            daemon.updateFairShare();
            assertEquals(1, node.heartbeat().jobsToStart().size(), "a starts; b waits though there is room");
            JsonNode reason = users.get("/api/v1/operations/" + b).body().path("pending_reason");
            assertEquals("dependency", reason.path("code").asText(), reason.toString());
            assertTrue(reason.path("message").asText().startsWith("it waits for operation " + a + " to complete"),
                    reason.toString());
            assertEquals("dependency", users.get("/api/v1/operations/" + b + "/explain").body().at("/trees/0/verdict")
                    .asText());
        }
        try (SchedulerDaemon daemon = start(dir);
                DaemonFixture users = new DaemonFixture().at(daemon.httpPort(), daemon.nodePort());
                DaemonFixture.FakeNode node = users.node("n1", 4)) {
            node.handshake();
            daemon.updateFairShare();
            node.heartbeat();
            assertEquals("dependency", users.get("/api/v1/operations/" + b).body().at("/pending_reason/code").asText(),
                    "still waiting after a restart");
            node.completeAll();
            node.heartbeat();
            assertEquals("completed", users.get("/api/v1/operations/" + a).body().at("/state").asText());
            daemon.updateFairShare();
            assertEquals(2, node.heartbeat().jobsToStart().size(), "a completed: b and root's start");
        }
    }

    @Test
    void whenWhatItWaitsForIsAbortedItIsAbortedWithWhy(@TempDir Path dir) throws Exception {
        try (SchedulerDaemon daemon = start(dir);
                DaemonFixture users = new DaemonFixture().at(daemon.httpPort(), daemon.nodePort());
                DaemonFixture.FakeNode node = users.node("n1", 4)) {
            node.handshake();
            String a = users.sendAs("alice", "POST", "/api/v1/operations",
                    "pool: research\ntasks:\n  main: {job_count: 1, command: x, cpu: 1, memory: 1Gi}\n").body().get("id").asText();
            String b = users.sendAs("alice", "POST", "/api/v1/operations", spec(a, null)).body().get("id").asText();
            assertEquals(200, users.sendAs("alice", "POST", "/api/v1/operations/" + a + "/abort", null).status());
            daemon.updateFairShare();
            JsonNode aborted = users.get("/api/v1/operations/" + b).body();
            assertEquals("aborted", aborted.at("/state").asText(), aborted.toString());
            DaemonFixture.Reply late = users.sendAs("alice", "POST", "/api/v1/operations", spec(a, "completed"));
            assertEquals(400, late.status(), "it can never complete now");
            assertTrue(late.body().get("message").asText().contains("would wait forever"), late.toString());
        }
    }
}
