package io.grove.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.core.resource.Resources;
import io.grove.protocol.Handshake;
import io.grove.protocol.HeartbeatNow;
import io.grove.protocol.Message;
import io.grove.protocol.Welcome;
import io.grove.testing.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Work that arrives is started without waiting a period: the fair shares are updated at once and
 * the nodes with room are asked to heartbeat now — nodes of protocol version 3; older ones keep
 * their period. The clock is a fake one, and the periodic update is an hour away.
 */
class HeartbeatNowDaemonTest {

    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-11-27T10:00:00Z"));

    @Test
    void aSubmissionStartsAtOnceOnANodeAskedToHeartbeatAndAnOldNodeIsNotAsked(@TempDir Path dir) throws Exception {
        DaemonSettings settings = DaemonSettings.defaults(DaemonFixture.config(dir, DaemonFixture.POOLS), dir.resolve("data"))
                .withPorts(0, 0).withPeriods(Duration.ofSeconds(1), Duration.ofHours(1));
        try (SchedulerDaemon daemon = SchedulerDaemon.start(settings, now::get);
                DaemonFixture users = new DaemonFixture().at(daemon.httpPort(), daemon.nodePort());
                DaemonFixture.FakeNode current = users.node("n-current", 4);
                DaemonFixture.FakeNode old = users.node("n-old", 4)) {
            List<Message> toCurrent = new CopyOnWriteArrayList<>();
            List<Message> toOld = new CopyOnWriteArrayList<>();
            current.client.onPush(toCurrent::add);
            old.client.onPush(toOld::add);
            assertEquals(Message.VERSION, ((Welcome) current.handshake()).protocolVersion());
            Message welcomed = old.client.request(new Handshake(2, "n-old", "", List.of(), new Resources(4, 4, 0, 16e9, 0),
                    List.of(), null), DaemonFixture.TIMEOUT).get();
            assertEquals(2, ((Welcome) welcomed).protocolVersion());
            daemon.updateFairShare();   // the first update: its cost says whether early ones are cheap

            users.submit("prod", 2);
            Await.until("the node with room is asked to heartbeat", () -> !toCurrent.isEmpty());
            assertTrue(toCurrent.get(0) instanceof HeartbeatNow, toCurrent.toString());
            assertEquals(2, current.heartbeat().jobsToStart().size(),
                    "the submission was counted by an update at once, not at the period an hour away");
            assertEquals(List.of(), toOld, "a node of protocol version 2 is never sent heartbeat_now");

            // nothing new: no one is asked again
            daemon.updateFairShare();
            assertEquals(1, toCurrent.size());
        }
    }
}
