package io.grove.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.grove.protocol.HeartbeatReply;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReloadAndLivenessTest {

    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-01-01T00:00:00Z"));

    private SchedulerDaemon start(Path config, Path dir) throws Exception {
        DaemonSettings settings = DaemonSettings.defaults(config, dir.resolve("data")).withPorts(0, 0)
                .withPeriods(Duration.ofSeconds(1), Duration.ofHours(1));
        return SchedulerDaemon.start(settings, now::get);
    }

    @Test
    void reloadsApplyWholeOrNotAtAll(@TempDir Path dir) throws Exception {
        Path config = DaemonFixture.config(dir, DaemonFixture.POOLS);
        try (SchedulerDaemon daemon = start(config, dir);
                DaemonFixture users = new DaemonFixture().at(daemon.httpPort(), daemon.nodePort())) {
            String op = users.submit("adhoc", 1);

            Files.writeString(config, DaemonFixture.POOLS.replace("prod: {weight: 3}", "prod: {weight: -3}"));
            DaemonFixture.Reply invalid = users.send("POST", "/api/v1/config/reload", null);
            assertEquals(400, invalid.status(), invalid.toString());
            assertEquals("RELOAD_REFUSED", invalid.body().get("code").asText());
            assertEquals("weight_out_of_range", invalid.body().get("details").get("problems").get(0).get("code").asText());
            JsonNode status = users.get("/api/v1/config").body();
            assertFalse(status.get("last_reload").get("applied").asBoolean());
            assertTrue(status.get("text").asText().contains("prod: {weight: 3}"), "the running config stays");
            // The file watcher may have refused the same file too: at least one failure is counted.
            assertTrue(users.get("/metrics").body().asText().lines()
                    .anyMatch(line -> line.startsWith("grove_config_reload_failures_total ") && !line.endsWith(" 0.0")));

            Files.writeString(config, DaemonFixture.POOLS.replace("  adhoc: {max_running_operation_count: 1}\n", ""));
            DaemonFixture.Reply inUse = users.send("POST", "/api/v1/config/reload", null);
            assertEquals(409, inUse.status(), inUse.toString());
            assertTrue(inUse.body().get("message").asText().contains("pool \"adhoc\" in tree \"physical\" holds [" + op + "]"),
                    inUse.toString());

            Files.writeString(config, DaemonFixture.POOLS + "      batch: {weight: 2}\n");
            DaemonFixture.Reply applied = users.send("POST", "/api/v1/config/reload", null);
            assertEquals(200, applied.status(), applied.toString());
            assertEquals(201, users.send("POST", "/api/v1/operations",
                    "pool: batch\ntasks: {main: {job_count: 1, command: x, cpu: 1}}").status());
        }
    }

    @Test
    void aRecursiveOrDuplicatedFileIsRefusedAndTheWatcherLivesOn(@TempDir Path dir) throws Exception {
        Path config = DaemonFixture.config(dir, DaemonFixture.POOLS);
        try (SchedulerDaemon daemon = start(config, dir);
                DaemonFixture users = new DaemonFixture().at(daemon.httpPort(), daemon.nodePort())) {
            Files.writeString(config, "pool_trees: &loop\n  physical:\n    pools:\n      a: {pools: *loop}\n");
            DaemonFixture.Reply cycle = users.send("POST", "/api/v1/config/reload", null);
            assertEquals(400, cycle.status(), cycle.toString());
            assertEquals("recursive_alias", cycle.body().get("details").get("problems").get(0).get("code").asText());
            Files.writeString(config, DaemonFixture.POOLS + "      prod: {weight: 1}\n");
            DaemonFixture.Reply twice = users.send("POST", "/api/v1/config/reload", null);
            assertEquals(400, twice.status(), twice.toString());
            assertTrue(twice.body().get("message").asText().contains("appears twice"), twice.toString());
            // the watcher still applies the next change by itself
            Files.writeString(config, DaemonFixture.POOLS + "      watched: {weight: 2}\n");
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (!users.get("/api/v1/config").body().get("text").asText().contains("watched")
                    && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertEquals(201, users.send("POST", "/api/v1/operations",
                    "pool: watched\ntasks: {main: {job_count: 1, command: x, cpu: 1}}").status());
        }
    }

    @Test
    void aChangedFileIsReloadedByItself(@TempDir Path dir) throws Exception {
        Path config = DaemonFixture.config(dir, DaemonFixture.POOLS);
        try (SchedulerDaemon daemon = start(config, dir);
                DaemonFixture users = new DaemonFixture().at(daemon.httpPort(), daemon.nodePort())) {
            Files.writeString(config, DaemonFixture.POOLS + "      watched: {weight: 2}\n");
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            JsonNode status = users.get("/api/v1/config").body();
            while (!status.get("last_reload").get("message").asText().contains("file changed")
                    && System.nanoTime() < deadline) {
                Thread.onSpinWait();
                status = users.get("/api/v1/config").body();
            }
            assertTrue(status.get("last_reload").get("message").asText().contains("file changed"), status.toString());
            assertTrue(users.get("/api/v1/config").body().get("text").asText().contains("watched"));
            assertEquals(201, users.send("POST", "/api/v1/operations",
                    "pool: watched\ntasks: {main: {job_count: 1, command: x, cpu: 1}}").status());
        }
    }

    @Test
    void aSilentNodeGoesOfflineThenLosesItsJobsWhichRunElsewhere(@TempDir Path dir) throws Exception {
        Path config = DaemonFixture.config(dir, DaemonFixture.POOLS);
        try (SchedulerDaemon daemon = start(config, dir);
                DaemonFixture users = new DaemonFixture().at(daemon.httpPort(), daemon.nodePort());
                DaemonFixture.FakeNode silent = users.node("silent", 2);
                DaemonFixture.FakeNode other = users.node("other", 2)) {
            silent.handshake();
            other.handshake();
            String op = users.submit("prod", 2);
            daemon.updateFairShare();
            assertEquals(2, silent.heartbeat().jobsToStart().size());
            now.set(now.get().plusSeconds(61));
            other.heartbeat();
            daemon.checkNodes();
            assertEquals("offline", users.get("/api/v1/nodes").body().get(0).get("state").asText());
            assertEquals(2, users.get("/api/v1/operations/" + op).body().get("progress").get("running").asInt(),
                    "an offline node keeps its jobs");
            now.set(now.get().plusSeconds(600));
            other.heartbeat();
            daemon.checkNodes();
            daemon.updateFairShare();
            HeartbeatReply moved = other.heartbeat();
            assertEquals(2, moved.jobsToStart().size(), "rescheduled on the other node");
            assertEquals(2, users.get("/api/v1/operations/" + op).body().get("progress").get("aborted").asInt());
        }
    }

    @Test
    void startedUnderNohupItSaysThatSighupCannotReload(@TempDir Path dir) throws Exception {
        Path config = DaemonFixture.config(dir, DaemonFixture.POOLS);
        try (DaemonProcess ignoring = DaemonProcess.start(java.util.List.of("/usr/bin/nohup"), config, dir.resolve("a"))) {
            assertTrue(ignoring.startOutput.contains("SIGHUP is ignored in this process"), ignoring.startOutput);
        }
        try (DaemonProcess plain = DaemonProcess.start(config, dir.resolve("b"))) {
            assertFalse(plain.startOutput.contains("SIGHUP is ignored"), plain.startOutput);
        }
    }
}
