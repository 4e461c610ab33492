package io.grove.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.http.ApiException;
import io.grove.api.StateEvent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The event stream applies the views' visibility to every reader: a job's output (the tail of its
 * stderr in a failure's message) reaches its owner and its pools' administrators, live and
 * replayed, and nobody else; one user cannot hold every stream.
 */
class EventHubTest {

    static final String SECRET = "exit code 1; stderr ends with:\nAWS_SECRET=alice-only";
    static final Map<String, List<String>> PLACED = Map.of("physical", List.of("etl", "<Root>"));

    /** A reader who administers {@code etl} or not. */
    static EventHub.Reader reader(String user, boolean admin) {
        return new EventHub.Reader() {
            @Override
            public String user() {
                return user;
            }

            @Override
            public boolean mayReadOutput(String owner, Map<String, List<String>> placements) {
                return admin && placements.get("physical").contains("etl");
            }
        };
    }

    static EventHub.Said failed(String user) {
        return new EventHub.Said("operation", "op-1", null, "failed", user, "etl", null, null, SECRET,
                Instant.parse("2026-11-27T00:00:00Z"), PLACED);
    }

    static List<String> open(EventHub hub, EventHub.Reader reader, Long last) {
        List<String> frames = new ArrayList<>();
        hub.stream(new EventHub.Filter(null, null), reader, last).open(frames::add);
        return frames;
    }

    @Test
    void aJobsStderrReachesItsOwnerAndItsPoolsAdministratorsOnlyLiveAndReplayed() {
        EventHub hub = new EventHub();
        List<String> bob = open(hub, reader("bob", false), null);
        List<String> alice = open(hub, reader("alice", false), null);
        List<String> admin = open(hub, reader("carol", true), null);
        hub.publish(failed("alice"));
        assertFalse(String.join("", bob).contains("alice-only"), "another user read the job's stderr: " + bob);
        assertTrue(String.join("", bob).contains("withheld"), bob.toString());
        assertTrue(String.join("", bob).contains("exit code 1"), "the message without the output: " + bob);
        assertTrue(String.join("", alice).contains("alice-only"), alice.toString());
        assertTrue(String.join("", admin).contains("alice-only"), admin.toString());

        List<String> replayed = open(hub, reader("bob", false), 0L);
        assertTrue(String.join("", replayed).contains("\"op-1\""), "replayed: " + replayed);
        assertFalse(String.join("", replayed).contains("alice-only"), "replayed from 0: " + replayed);
        List<String> own = open(hub, reader("alice", false), 0L);
        assertTrue(String.join("", own).contains("alice-only"), own.toString());
    }

    @Test
    void oneUserCannotHoldEveryStream() {
        EventHub hub = new EventHub();
        for (int i = 0; i < EventHub.MAX_STREAMS_PER_USER; i++) {
            open(hub, reader("mallory", false), null);
        }
        ApiException refused = assertThrows(ApiException.class, () -> open(hub, reader("mallory", false), null));
        assertEquals(429, refused.status());
        assertTrue(refused.getMessage().contains("16 event streams open"), refused.getMessage());
        open(hub, reader("alice", false), null);
        assertEquals(EventHub.MAX_STREAMS_PER_USER + 1, hub.streams());
    }

    @Test
    void theLastTenThousandAreKeptInOrderAndOlderOnesAskForAReset() {
        EventHub hub = new EventHub();
        int published = EventHub.KEPT + 25;
        for (int n = 1; n <= published; n++) {
            hub.publish(new EventHub.Said("operation", "op-" + n, null, "pending", "alice", "etl", null, null, null,
                    Instant.ofEpochSecond(1_800_000_000L, n), PLACED));
        }
        List<StateEvent> kept = hub.kept();
        assertEquals(EventHub.KEPT, kept.size());
        assertEquals("op-26", kept.get(0).operationId());
        assertEquals("op-" + published, kept.get(kept.size() - 1).operationId());
        assertEquals("2027-01-15T08:00:00.000000026Z", kept.get(0).at(), "the time as said, to the nanosecond");

        List<String> fromOldest = open(hub, reader("alice", false), 25L);
        assertEquals(1 + EventHub.KEPT, fromOldest.size(), "retry, then every kept event once");
        assertTrue(fromOldest.get(1).startsWith("id: 26\n"), fromOldest.get(1));
        assertTrue(fromOldest.get(fromOldest.size() - 1).startsWith("id: " + published + "\n"));
        List<String> tooOld = open(hub, reader("alice", false), 24L);
        assertTrue(tooOld.get(1).startsWith("event: reset"), tooOld.get(1));
        List<String> otherPool = new ArrayList<>();
        hub.stream(new EventHub.Filter(null, "prod"), reader("alice", false), 25L).open(otherPool::add);
        assertEquals(1, otherPool.size(), "a filter takes no event of another pool: " + otherPool.subList(0, 1));
    }
}
