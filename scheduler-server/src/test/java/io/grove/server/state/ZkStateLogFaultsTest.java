package io.grove.server.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.server.coord.MemoryCoordination;
import io.grove.server.coord.MemoryEnsemble;
import io.grove.server.coord.ZkLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The ZooKeeper state log under injected faults, on the in-memory twin: a write whose reply is
 * lost or cut by a partition (its outcome unknown: the log stops until a leader reads it again), a
 * store that throws (that batch fails alone and the writer goes on), and a close that races
 * appends (no caller is left waiting).
 */
class ZkStateLogFaultsTest {

    static final ZkLayout LAYOUT = new ZkLayout("/grove-faults");

    MemoryEnsemble ensemble;
    MemoryCoordination client;
    ZkStateLog log;
    final java.util.concurrent.atomic.AtomicInteger stopped = new java.util.concurrent.atomic.AtomicInteger();

    @BeforeEach
    void open() throws Exception {
        ensemble = new MemoryEnsemble(System::nanoTime, Duration.ofSeconds(30), LAYOUT);
        client = ensemble.client("leader");
        client.start(signal -> { });
        log = ZkStateLog.open(client, LAYOUT, client.claimEpoch(), new ZkLogReader(client, LAYOUT),
                stopped::incrementAndGet);
    }

    @AfterEach
    void close() {
        log.close();
    }

    List<String> written() throws Exception {
        ZkLogReader reader = new ZkLogReader(ensemble.observer(), LAYOUT);
        reader.catchUp();
        return ZkStateLogTest.ids(reader.events());
    }

    static Throwable failure(CompletableFuture<Void> future) {
        return assertThrows(ExecutionException.class, () -> future.get(10, TimeUnit.SECONDS)).getCause();
    }

    @Test
    void aWriteWhoseReplyIsLostHasAnUnknownOutcomeAndStopsTheLogUntilALeaderReadsItAgain() throws Exception {
        client.loseReplies(1);
        Throwable unknown = failure(log.append(ZkStateLogTest.event(1)));
        assertInstanceOf(WriteAhead.OutcomeUnknown.class, unknown, unknown.toString());
        assertEquals(1, stopped.get(), "the daemon is told once, to step down");
        assertTrue(log.uncertain());
        Throwable refused = failure(log.append(ZkStateLogTest.event(2)));
        assertTrue(refused.getMessage().contains("unknown outcome"), refused.toString());
        assertTrue(failure(log.durable()).getMessage().contains("unknown outcome"), "nothing is durable meanwhile");
        assertEquals(List.of("op-1"), written(), "the first was written all the same: its outcome was unknown");
        try (ZkStateLog next = ZkStateLog.open(client, LAYOUT, client.claimEpoch(), new ZkLogReader(client, LAYOUT),
                () -> { })) {
            assertEquals(List.of("op-1"), ZkStateLogTest.ids(next.recovered()), "a leader that reads the log knows it");
            next.append(ZkStateLogTest.event(3)).get(10, TimeUnit.SECONDS);
        }
        assertEquals(List.of("op-1", "op-3"), written());
    }

    @Test
    void aPartitionWhileWritingStopsTheLogTheSameWay() throws Exception {
        client.partition(true);
        Throwable cut = failure(log.append(ZkStateLogTest.event(1)));
        assertInstanceOf(WriteAhead.OutcomeUnknown.class, cut, cut.toString());
        assertTrue(log.writeFailure() != null, "the failure is reported while writes fail");
        client.partition(false);
        assertTrue(failure(log.append(ZkStateLogTest.event(2))).getMessage().contains("unknown outcome"));
        assertEquals(1, stopped.get());
        assertEquals(List.of(), written());
    }

    @Test
    void aStoreThatThrowsFailsItsBatchAloneAndTheWriterGoesOn() throws Exception {
        client.throwOnNextWrite(new IllegalStateException("a bug below the log"));
        Throwable thrown = failure(log.append(ZkStateLogTest.event(1)));
        assertTrue(thrown.getMessage().contains("a bug below the log"), thrown.toString());
        log.append(ZkStateLogTest.event(2)).get(10, TimeUnit.SECONDS);
        log.durable().get(10, TimeUnit.SECONDS);
        assertEquals(List.of("op-2"), written());
    }

    @Test
    void aCloseRacingAppendsLeavesNoCallerWaiting() throws Exception {
        List<CompletableFuture<Void>> all = java.util.Collections.synchronizedList(new ArrayList<>());
        List<Thread> appenders = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            int base = t * 1_000;
            Thread appender = new Thread(() -> {
                for (int i = 0; i < 500; i++) {
                    all.add(log.append(ZkStateLogTest.event(base + i)));
                }
            });
            appenders.add(appender);
            appender.start();
        }
        log.close();
        for (Thread appender : appenders) {
            appender.join();
        }
        int written = 0;
        for (CompletableFuture<Void> future : all) {
            try {
                future.get(10, TimeUnit.SECONDS);
                written++;
            } catch (TimeoutException e) {
                throw new AssertionError("an append was left waiting after the close", e);
            } catch (ExecutionException e) {
                assertTrue(e.getCause().getMessage().contains("closed"), e.getCause().toString());
            }
        }
        assertEquals(written, written().size(), "every append acknowledged is written, and no other");
        assertEquals(2_000, all.size());
    }
}
