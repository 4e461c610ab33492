package io.grove.server.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The writer both state logs share (the journal and ZooKeeper's) cannot be killed: a group that
 * throws while it is encoded or written fails alone with its cause and the writer goes on; after
 * a close every append and compaction is refused instead of waiting forever.
 */
class QueuedStateLogTest {

    /** A log whose writes throw for an event aborting {@code boom}, and store everything else. */
    static final class Faulty extends QueuedStateLog {
        final List<JournalEvent> written = new ArrayList<>();

        Faulty() {
            super("test log", List.of());
            startWriter("test-log-writer");
        }

        @Override
        void writeGroup(List<Append> group) {
            for (Append append : group) {
                if (append.event() instanceof JournalEvent.Aborted aborted && aborted.id().equals("boom")) {
                    throw new IllegalArgumentException("cannot encode " + aborted.id());
                }
                if (append.event() instanceof JournalEvent.Aborted aborted && aborted.id().equals("error")) {
                    throw new AssertionError("a writer's own bug");
                }
            }
            group.forEach(append -> written.add(append.event()));
            stored(group.size());
            completed(group);
        }

        @Override
        void compactTo(List<JournalEvent> snapshot) {
            written.clear();
            written.addAll(snapshot);
            restarted(snapshot.size());
        }

        @Override
        Throwable compactionFailed(Exception e) {
            return e;
        }
    }

    static JournalEvent aborted(String id) {
        return new JournalEvent.Aborted(id, 0, "test");
    }

    @Test
    void aGroupThatThrowsFailsAloneAndTheWriterGoesOn() throws Exception {
        Faulty log = new Faulty();
        try {
            ExecutionException encode = assertThrows(ExecutionException.class,
                    () -> log.append(aborted("boom")).get(10, TimeUnit.SECONDS));
            assertTrue(encode.getCause().getMessage().contains("cannot encode boom"), encode.getCause().toString());
            assertEquals("cannot encode boom", log.writeFailure());
            log.append(aborted("op-1")).get(10, TimeUnit.SECONDS);
            ExecutionException bug = assertThrows(ExecutionException.class,
                    () -> log.append(aborted("error")).get(10, TimeUnit.SECONDS));
            assertTrue(bug.getCause() instanceof AssertionError, bug.getCause().toString());
            log.append(aborted("op-2")).get(10, TimeUnit.SECONDS);
            assertEquals(List.of(aborted("op-1"), aborted("op-2")), log.written, "the writer went on after both");
            log.compact(List.of(aborted("op-2"))).get(10, TimeUnit.SECONDS);
            assertEquals(1, log.records());
        } finally {
            log.close();
        }
    }

    @Test
    void afterACloseAppendsAndCompactionsAreRefusedNotLeftWaiting() throws Exception {
        Faulty log = new Faulty();
        log.append(aborted("op-1")).get(10, TimeUnit.SECONDS);
        log.close();
        ExecutionException append = assertThrows(ExecutionException.class,
                () -> log.append(aborted("op-2")).get(10, TimeUnit.SECONDS));
        assertTrue(append.getCause().getMessage().contains("closed"), append.getCause().toString());
        ExecutionException compact = assertThrows(ExecutionException.class,
                () -> log.compact(List.of()).get(10, TimeUnit.SECONDS));
        assertTrue(compact.getCause().getMessage().contains("closed"), compact.getCause().toString());
    }
}
