package io.grove.server;

import io.grove.protocol.RunningJob;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.grove.protocol.ErrorCode;
import io.grove.protocol.ErrorReply;
import io.grove.protocol.Handshake;
import io.grove.protocol.HeartbeatReply;
import io.grove.protocol.Message;
import io.grove.protocol.NodeHeartbeat;
import io.grove.protocol.Welcome;
import io.grove.core.resource.Resources;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A real daemon on loopback, driven over HTTP and the node protocol, with a fake clock. */
class DaemonTest {

    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-01-01T00:00:00Z"));
    private final Clock clock = now::get;

    private SchedulerDaemon start(Path dir, String pools) throws Exception {
        DaemonSettings settings = DaemonSettings.defaults(DaemonFixture.config(dir, pools), dir.resolve("data"))
                .withPorts(0, 0).withPeriods(Duration.ofSeconds(1), Duration.ofHours(1));
        return SchedulerDaemon.start(settings, clock);
    }

    @Test
    void version2NodesSendOnlyWhatStartedAndAreAskedForTheirFullListNowAndThen(@TempDir Path dir) throws Exception {
        try (SchedulerDaemon daemon = start(dir, DaemonFixture.POOLS);
                DaemonFixture users = new DaemonFixture().at(daemon.httpPort(), daemon.nodePort());
                DaemonFixture.FakeNode node = users.node("n1", 4)) {
            assertEquals(Message.VERSION, ((Welcome) node.handshake()).protocolVersion());
            String op = users.submit("prod", 6);
            daemon.updateFairShare();
            HeartbeatReply first = node.heartbeat();
            assertEquals(4, first.jobsToStart().size());
            List<RunningJob> started = first.jobsToStart().stream()
                    .map(s -> new RunningJob(s.jobId(), s.operationId(), null)).toList();
            HeartbeatReply delta = node.delta(started, List.of());
            assertEquals(List.of(), delta.jobsToAbort(), "the started jobs are the scheduler's");
            HeartbeatReply unknown = node.delta(List.of(new RunningJob("op-9-9", "op-9", null)), List.of());
            assertEquals("unknown_job", unknown.jobsToAbort().get(0).reason());
            // a job the node lost is found by the full list the scheduler asks for
            HeartbeatReply reply = unknown;
            int deltas = 2;
            while (!reply.wantsResync()) {
                reply = node.delta(List.of(), List.of());
                deltas++;
                assertTrue(deltas <= 60, "a resync within a minute of heartbeats");
            }
            node.running.remove(started.get(0).jobId());
            node.heartbeat();
            JsonNode progress = users.get("/api/v1/operations/" + op).body().get("progress");
            assertEquals(1, progress.get("aborted").asInt(), "the lost job ended: " + progress);
            assertEquals(4, progress.get("running").asInt(), "and its index ran again at once: " + progress);
        }
    }

    @Test
    void aVersion2NodeIsToldToKillTheJobsOfAnAbortedOperationUntilItReportsThemEnded(@TempDir Path dir) throws Exception {
        try (SchedulerDaemon daemon = start(dir, DaemonFixture.POOLS);
                DaemonFixture users = new DaemonFixture().at(daemon.httpPort(), daemon.nodePort());
                DaemonFixture.FakeNode node = users.node("n1", 4)) {
            node.handshake();
            String op = users.submit("prod", 2);
            daemon.updateFairShare();
            List<String> started = node.heartbeat().jobsToStart().stream().map(HeartbeatReply.JobToStart::jobId).toList();
            assertEquals(2, started.size());
            assertEquals(200, users.send("POST", "/api/v1/operations/" + op + "/abort", null).status());
            for (int i = 0; i < 2; i++) {
                HeartbeatReply delta = node.delta(List.of(), List.of());
                assertEquals(started, delta.jobsToAbort().stream().map(HeartbeatReply.JobToAbort::jobId).toList(),
                        "told again until the node reports them ended");
            }
            List<io.grove.protocol.FinishedJob> ended = started.stream().map(id -> new io.grove.protocol.FinishedJob(id,
                    io.grove.protocol.FinishedJob.Outcome.ABORTED, null, "killed", 0, 0)).toList();
            node.delta(List.of(), ended);
            HeartbeatReply after = node.delta(List.of(), List.of());
            assertEquals(List.of(), after.jobsToAbort());
        }
    }

    @Test
    void version1NodesAreStillServedWithFullLists(@TempDir Path dir) throws Exception {
        try (SchedulerDaemon daemon = start(dir, DaemonFixture.POOLS);
                DaemonFixture users = new DaemonFixture().at(daemon.httpPort(), daemon.nodePort());
                DaemonFixture.FakeNode node = users.node("old", 4)) {
            Resources limits = node.limits;
            Welcome welcome = (Welcome) node.client.request(new Handshake(1, "old", "", List.of(), limits, List.of(), null),
                    DaemonFixture.TIMEOUT).get();
            assertEquals(1, welcome.protocolVersion());
            for (int i = 0; i < 70; i++) {
                HeartbeatReply reply = (HeartbeatReply) node.client.request(new NodeHeartbeat("old", limits, null,
                        List.of(), List.of()), DaemonFixture.TIMEOUT).get();
                assertEquals(null, reply.resync(), "a version 1 node is never sent what it cannot read");
            }
            Message refused = node.client.request(NodeHeartbeat.delta("old", limits, null, List.of(), List.of()),
                    DaemonFixture.TIMEOUT).get();
            assertEquals(ErrorCode.INVALID_MESSAGE, ((ErrorReply) refused).code());
        }
    }

    @Test
    void aJobLargerThanEveryNodeIsRefusedAtSubmissionAndOneAcceptedBeforeSaysSoWhileItWaits(@TempDir Path dir)
            throws Exception {
        try (SchedulerDaemon daemon = start(dir, DaemonFixture.POOLS);
                DaemonFixture users = new DaemonFixture().at(daemon.httpPort(), daemon.nodePort());
                DaemonFixture.FakeNode node = users.node("n1", 4)) {
            // no node has said what it has: nothing to refuse it by
            DaemonFixture.Reply submitted = users.send("POST", "/api/v1/operations",
                    "pool: prod\ntasks: {huge: {job_count: 1, command: x, cpu: 64}}");
            assertEquals(201, submitted.status(), submitted.toString());
            assertInstanceOf(Welcome.class, node.handshake());
            DaemonFixture.Reply refused = users.send("POST", "/api/v1/operations",
                    "pool: prod\ntasks: {huge: {job_count: 1, command: x, cpu: 64}}");
            assertEquals(400, refused.status(), refused.toString());
            assertEquals("INVALID_SPEC", refused.body().get("code").asText(), refused.toString());
            assertTrue(refused.body().get("message").asText().contains("task huge: a job asks for")
                    && refused.body().get("message").asText().contains("more than any of the 1 node(s) of tree physical"),
                    refused.toString());
            daemon.updateFairShare();
            assertEquals(0, node.heartbeat().jobsToStart().size());
            JsonNode reason = users.get("/api/v1/operations/" + submitted.body().get("id").asText()).body()
                    .get("pending_reason");
            assertEquals("job_larger_than_every_node", reason.get("code").asText(), String.valueOf(reason));
            assertTrue(reason.get("message").asText().contains("task huge: a job asks for"), reason.toString());
        }
    }

    @Test
    void submitScheduleFinishAndAbort(@TempDir Path dir) throws Exception {
        try (SchedulerDaemon daemon = start(dir, DaemonFixture.POOLS);
                DaemonFixture users = new DaemonFixture().at(daemon.httpPort(), daemon.nodePort());
                DaemonFixture.FakeNode node = users.node("n1", 4)) {
            assertInstanceOf(Welcome.class, node.handshake());
            String op = users.submit("prod", 6);
            assertEquals("op-1", op);
            daemon.updateFairShare();
            HeartbeatReply reply = node.heartbeat();
            assertEquals(4, reply.jobsToStart().size());
            assertEquals("sleep 100", reply.jobsToStart().get(0).command());
            assertEquals(1000, reply.nextHeartbeatMs());

            JsonNode view = users.get("/api/v1/operations/" + op).body();
            assertEquals("running", view.get("state").asText());
            assertEquals(4, view.get("progress").get("running").asInt());
            assertEquals("prod", view.get("trees").get("physical").get("pool").asText());

            node.completeAll();
            node.heartbeat();
            assertEquals(4, users.get("/api/v1/operations/" + op).body().get("progress").get("completed").asInt());
            assertEquals(2, node.running.size(), "the last two jobs started on the freed room");

            DaemonFixture.Reply aborted = users.send("POST", "/api/v1/operations/" + op + "/abort", null);
            assertEquals(200, aborted.status(), aborted.toString());
            assertEquals("aborted", aborted.body().get("state").asText());
            HeartbeatReply afterAbort = node.heartbeat();
            assertEquals(2, afterAbort.jobsToAbort().size());
            assertEquals("ended_by_scheduler", afterAbort.jobsToAbort().get(0).reason());
            assertEquals(409, users.send("POST", "/api/v1/operations/" + op + "/abort", null).status());

            JsonNode jobs = users.get("/api/v1/operations/" + op + "/jobs").body();
            assertEquals(6, jobs.size());
        }
    }

    @Test
    void badRequestsAreRefusedWithReasonsAndNothingIsHalfCreated(@TempDir Path dir) throws Exception {
        try (SchedulerDaemon daemon = start(dir, DaemonFixture.POOLS);
                DaemonFixture users = new DaemonFixture().at(daemon.httpPort(), daemon.nodePort())) {
            DaemonFixture.Reply unknownPool = users.send("POST", "/api/v1/operations",
                    "{\"pool\": \"nope\", \"tasks\": {\"main\": {\"job_count\": 1, \"command\": \"x\", \"cpu\": 1}}}");
            assertEquals(400, unknownPool.status());
            assertEquals("UNKNOWN_POOL", unknownPool.body().get("code").asText());
            DaemonFixture.Reply badSpec = users.send("POST", "/api/v1/operations",
                    "pool: prod\ntasks:\n  main: {job_count: 0, command: x, cpu: -1, colour: red}\n");
            assertEquals(400, badSpec.status());
            assertEquals("INVALID_SPEC", badSpec.body().get("code").asText());
            assertEquals(3, badSpec.body().get("details").get("problems").size(), badSpec.toString());
            DaemonFixture.Reply unknownTree = users.send("POST", "/api/v1/operations",
                    "pool_trees: [gpu]\ntasks: {main: {job_count: 1, command: x, cpu: 1}}");
            assertEquals("UNKNOWN_TREE", unknownTree.body().get("code").asText());
            assertEquals(0, users.get("/api/v1/operations?state=running").body().size());
            DaemonFixture.Reply bogus = users.get("/api/v1/operations?state=bogus");
            assertEquals(400, bogus.status(), "not an empty list: a state that cannot be");
            assertEquals("BAD_PARAMETER", bogus.body().get("code").asText());
            assertEquals("'state' must be one of pending, running, completed, failed, aborted, got 'bogus'",
                    bogus.body().get("message").asText());
            assertEquals(200, users.get("/api/v1/operations?state=RUNNING").status(), "case aside");
            assertEquals(404, users.get("/api/v1/operations/op-77").status());
            assertEquals(404, users.get("/api/v1/nothing").status());

            users.submit("adhoc", 1);
            users.submit("adhoc", 1);
            JsonNode pending = users.get("/api/v1/operations/op-2").body();
            assertEquals("pending", pending.get("state").asText());
            assertEquals(1, pending.get("pending_reason").get("queue_position").asInt());
            assertEquals("adhoc", pending.get("pending_reason").get("pool").asText());
            for (int i = 0; i < 48; i++) {
                users.submit("adhoc", 1);
            }
            DaemonFixture.Reply tooMany = users.send("POST", "/api/v1/operations",
                    "pool: adhoc\ntasks: {main: {job_count: 1, command: x, cpu: 1}}");
            assertEquals(429, tooMany.status());
            assertEquals("TOO_MANY_OPERATIONS", tooMany.body().get("code").asText());
        }
    }

    @Test
    void protocolErrorsAreTypedAndTheDaemonKeepsServing(@TempDir Path dir) throws Exception {
        try (SchedulerDaemon daemon = start(dir, DaemonFixture.POOLS);
                DaemonFixture users = new DaemonFixture().at(daemon.httpPort(), daemon.nodePort());
                DaemonFixture.FakeNode early = users.node("early", 2);
                DaemonFixture.FakeNode old = users.node("old", 2);
                DaemonFixture.FakeNode good = users.node("good", 2)) {
            Message noHandshake = early.client.request(new NodeHeartbeat("early", new Resources(1, 1, 0, 0, 0), null,
                    List.of(), List.of()), DaemonFixture.TIMEOUT).get();
            assertEquals(ErrorCode.HANDSHAKE_REQUIRED, ((ErrorReply) noHandshake).code());
            Message wrongVersion = old.client.request(new Handshake(99, "old", "", List.of(), new Resources(1, 1, 0, 0, 0),
                    List.of(), null), DaemonFixture.TIMEOUT).get();
            assertEquals(ErrorCode.UNSUPPORTED_PROTOCOL_VERSION, ((ErrorReply) wrongVersion).code());
            assertTrue(((ErrorReply) wrongVersion).fatal());
            assertInstanceOf(Welcome.class, good.handshake());
            assertEquals(200, users.get("/healthz").status());
            JsonNode nodes = users.get("/api/v1/nodes").body();
            assertEquals(1, nodes.size(), "only the node that shook hands: " + nodes);
        }
    }

    @Test
    void metricsAndConfig(@TempDir Path dir) throws Exception {
        try (SchedulerDaemon daemon = start(dir, DaemonFixture.POOLS);
                DaemonFixture users = new DaemonFixture().at(daemon.httpPort(), daemon.nodePort());
                DaemonFixture.FakeNode node = users.node("n1", 4)) {
            node.handshake();
            users.submit("prod", 2);
            daemon.updateFairShare();
            node.heartbeat();
            daemon.updateFairShare();
            String metrics = users.get("/metrics").body().asText();
            assertTrue(metrics.contains("grove_heartbeats_total 1.0"), metrics);
            assertTrue(metrics.contains("grove_jobs_started_total 2.0"), metrics);
            assertTrue(metrics.contains("grove_pool_fair_share_ratio{pool=\"prod\",tree=\"physical\"}"), metrics);
            assertTrue(metrics.contains("grove_heartbeat_latency_seconds_bucket"), metrics);
            JsonNode pools = users.get("/api/v1/pool_trees/physical/pools").body();
            assertEquals("<Root>", pools.get(0).get("name").asText());
            JsonNode prod = users.get("/api/v1/pool_trees/physical/pools/prod").body();
            assertEquals(1, prod.get("operations").get("running").asInt());
            assertTrue(prod.has("fair_share") && prod.has("satisfaction_ratio") && prod.has("starvation"), prod.toString());
            assertEquals("physical", users.get("/api/v1/pool_trees").body().get(0).get("name").asText());
            assertTrue(users.get("/api/v1/config").body().get("text").asText().contains("adhoc"));
        }
    }

    @Test
    void aStartThatFailsLateLeavesNoFileOpen(@TempDir Path dir) throws Exception {
        // The audit log and the journal open before the pools file is read: a bad pools file must close them.
        DaemonSettings settings = DaemonSettings.defaults(DaemonFixture.config(dir, "pool_trees: {t: {pools: {a: {weight: -1}}}}"),
                dir.resolve("data")).withPorts(0, 0);
        SchedulerDaemon.DaemonException failure = org.junit.jupiter.api.Assertions.assertThrows(
                SchedulerDaemon.DaemonException.class, () -> SchedulerDaemon.start(settings, clock));
        assertTrue(failure.getMessage().startsWith("the pools file is invalid"), failure.getMessage());
        assertTrue(java.nio.file.Files.exists(dir.resolve("data").resolve("audit.log")), "the audit log was opened");
        assertEquals(List.of(), openFilesUnder(dir), "nothing under the data directory stays open");
    }

    /** The files of this process open under {@code dir} (Linux: {@code /proc/self/fd}). */
    private static List<String> openFilesUnder(Path dir) throws java.io.IOException {
        List<String> open = new java.util.ArrayList<>();
        try (var fds = java.nio.file.Files.list(Path.of("/proc/self/fd"))) {
            for (Path fd : (Iterable<Path>) fds::iterator) {
                try {
                    Path target = java.nio.file.Files.readSymbolicLink(fd);
                    if (target.startsWith(dir)) {
                        open.add(target.toString());
                    }
                } catch (java.io.IOException gone) {
                    // the descriptor closed while listing
                }
            }
        }
        return open;
    }

    /** Registers the 4-cpu node and fills it with an operation of 8 jobs in {@code adhoc}; returns its id. */
    private static String fill(SchedulerDaemon daemon, DaemonFixture users, DaemonFixture.FakeNode node) throws Exception {
        node.handshake();
        String op = users.submit("adhoc", 8);
        daemon.updateFairShare();
        assertEquals(4, node.heartbeat().jobsToStart().size());
        return op;
    }

    @Test
    void aStarvingOperationPreemptsThroughTheDaemon(@TempDir Path dir) throws Exception {
        try (SchedulerDaemon daemon = start(dir, DaemonFixture.POOLS);
                DaemonFixture users = new DaemonFixture().at(daemon.httpPort(), daemon.nodePort());
                DaemonFixture.FakeNode node = users.node("n1", 4)) {
            String greedy = fill(daemon, users, node);
            String prod = users.submit("prod", 8);
            daemon.updateFairShare();
            node.heartbeat();
            now.set(now.get().plusSeconds(3));
            daemon.updateFairShare();
            HeartbeatReply reply = node.heartbeat();
            assertEquals(1, reply.jobsToInterrupt().size(), reply.toString());
            HeartbeatReply.JobToInterrupt interrupt = reply.jobsToInterrupt().get(0);
            assertEquals("starvation", interrupt.reason());
            assertEquals(prod, interrupt.preemptorOperationId());
            assertEquals(10_000, interrupt.graceMs());
            assertTrue(interrupt.jobId().startsWith(greedy + "-"));
            assertEquals(prod, reply.jobsToStart().get(0).operationId());
        }
    }

    @Test
    void aLimitLoweredByPatchTakesJobsBackThroughTheDaemon(@TempDir Path dir) throws Exception {
        try (SchedulerDaemon daemon = start(dir, DaemonFixture.POOLS);
                DaemonFixture users = new DaemonFixture().at(daemon.httpPort(), daemon.nodePort());
                DaemonFixture.FakeNode node = users.node("n1", 4)) {
            String op = fill(daemon, users, node);
            DaemonFixture.Reply updated = users.send("PATCH", "/api/v1/operations/" + op,
                    "{\"resource_limits\": {\"cpu\": 1}}");
            assertEquals(200, updated.status(), updated.toString());
            daemon.updateFairShare();
            HeartbeatReply reply = node.heartbeat();
            assertEquals(3, reply.jobsToInterrupt().size(), reply.toString());
            for (HeartbeatReply.JobToInterrupt interrupt : reply.jobsToInterrupt()) {
                assertEquals("resource_limits_violated", interrupt.reason());
                assertTrue(interrupt.jobId().startsWith(op + "-"));
            }
            assertTrue(reply.jobsToStart().isEmpty(), "nothing starts in their place: " + reply);
            DaemonFixture.Reply jobs = users.get("/api/v1/operations/" + op + "/jobs");
            assertTrue(jobs.body().toString().contains("resource_limits_violated"), jobs.body().toString());
        }
    }

    @Test
    void patchChangesWeightLimitsAndPoolLikeASubmit(@TempDir Path dir) throws Exception {
        try (SchedulerDaemon daemon = start(dir, DaemonFixture.POOLS);
                DaemonFixture users = new DaemonFixture().at(daemon.httpPort(), daemon.nodePort())) {
            String op = users.submit("prod", 2);
            users.submit("adhoc", 1);
            DaemonFixture.Reply updated = users.send("PATCH", "/api/v1/operations/" + op,
                    "{\"weight\": 4, \"resource_limits\": {\"cpu\": 1}}");
            assertEquals(200, updated.status(), updated.toString());
            assertEquals(4.0, updated.body().get("weight").asDouble());
            DaemonFixture.Reply full = users.send("PATCH", "/api/v1/operations/" + op, "{\"pool\": \"adhoc\"}");
            assertEquals(429, full.status(), full.toString());
            assertEquals("Max running operation count of pool \"adhoc\" violated", full.body().get("message").asText());
            assertEquals(400, users.send("PATCH", "/api/v1/operations/" + op, "{\"colour\": 1}").status());
            assertEquals(404, users.send("PATCH", "/api/v1/operations/op-99", "{\"weight\": 2}").status());
            for (String noTree : List.of("{\"tree\": \"nope\", \"pool\": \"adhoc\"}", "{\"tree\": \"nope\"}",
                    "{\"tree\": \"nope\", \"weight\": 2}")) {
                DaemonFixture.Reply refused = users.send("PATCH", "/api/v1/operations/" + op, noTree);
                assertEquals(400, refused.status(), noTree + ": " + refused);
                assertTrue(refused.body().get("message").asText().contains("nope"), refused.toString());
            }
        }
    }
}
