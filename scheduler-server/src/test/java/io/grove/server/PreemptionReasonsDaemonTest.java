package io.grove.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.grove.protocol.HeartbeatReply;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A preempted job says through the API what it was taken for, and its operation's explanation lists it. */
class PreemptionReasonsDaemonTest {

    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-11-27T10:00:00Z"));

    @Test
    void aJobTakenForAStarvingOperationSaysWhichOperationAndPoolGotItsRoom(@TempDir Path dir) throws Exception {
        DaemonSettings settings = DaemonSettings.defaults(DaemonFixture.config(dir, DaemonFixture.POOLS), dir.resolve("data"))
                .withPorts(0, 0).withPeriods(Duration.ofSeconds(1), Duration.ofHours(1));
        try (SchedulerDaemon daemon = SchedulerDaemon.start(settings, now::get);
                DaemonFixture users = new DaemonFixture().at(daemon.httpPort(), daemon.nodePort());
                DaemonFixture.FakeNode node = users.node("n1", 4)) {
            node.handshake();
            String victim = users.submit("adhoc", 4);
            daemon.updateFairShare();
            assertEquals(4, node.heartbeat().jobsToStart().size());
            String starving = users.submit("prod", 4);
            daemon.updateFairShare();
            now.set(now.get().plusSeconds(5));
            daemon.updateFairShare();
            HeartbeatReply reply = node.heartbeat();
            assertTrue(!reply.jobsToInterrupt().isEmpty(), "the starving operation takes room: " + reply);

            JsonNode taken = null;
            for (JsonNode job : users.get("/api/v1/operations/" + victim + "/jobs").body()) {
                if (job.hasNonNull("preempted_for")) {
                    taken = job;
                }
            }
            assertTrue(taken != null, "a preempted job of " + victim);
            assertEquals("starvation", taken.at("/preempted_for/reason").asText(), taken.toString());
            assertEquals(starving, taken.at("/preempted_for/operation_id").asText());
            assertEquals("prod", taken.at("/preempted_for/pool").asText());
            assertTrue(taken.get("message").asText().contains("in pool prod (using"), taken.toString());

            JsonNode explained = users.get("/api/v1/operations/" + victim + "/explain").body();
            assertEquals(starving, explained.at("/preemptions/0/for_operation").asText(), explained.toString());
            assertEquals("prod", explained.at("/preemptions/0/for_pool").asText());
        }
    }
}
