package io.grove.server.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.core.cluster.Cluster;
import io.grove.core.cluster.ClusterSettings;
import io.grove.core.pool.PoolConfig;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.pool.PoolsConfig;
import io.grove.core.resource.Resources;
import io.grove.core.schedule.Heartbeat;
import io.grove.server.loop.SchedulerLoop;
import io.grove.server.Clock;
import io.netty.util.concurrent.ImmediateEventExecutor;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A backlog of heartbeats is answered in turns of a bounded size, with the loop's other work in
 * between; an answer that acknowledges ended jobs waits until they are durable.
 */
class HeartbeatBatcherTest {

    @Test
    void aBacklogIsAnsweredTurnByTurn() throws Exception {
        Cluster cluster = new Cluster(new PoolsConfig("t", Map.of("t", PoolTreeConfig.withPools("t",
                List.of(PoolConfig.builder("a").build())))), ClusterSettings.DEFAULT);
        Instant now = Instant.parse("2026-01-01T00:00:00Z");
        try (SchedulerLoop loop = new SchedulerLoop(cluster)) {
            HeartbeatBatcher batcher = new HeartbeatBatcher(loop, () -> now);
            CountDownLatch hold = new CountDownLatch(1);
            loop.call(c -> {
                try {
                    return hold.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            int count = 3 * HeartbeatBatcher.MAX_BATCH + 10;
            AtomicInteger answered = new AtomicInteger();
            CompletableFuture<Void> all = new CompletableFuture<>();
            for (int i = 0; i < count; i++) {
                Heartbeat heartbeat = new Heartbeat("n" + i, Set.of(), Resources.cpu(4), null, List.of(), List.of());
                batcher.submit(ImmediateEventExecutor.INSTANCE, heartbeat, decision -> {
                    if (answered.incrementAndGet() == count) {
                        all.complete(null);
                    }
                }, all::completeExceptionally);
            }
            // queued behind the first turn: it sees that turn's answers sent and the rest still waiting
            CompletableFuture<Integer> between = loop.call(c -> answered.get());
            hold.countDown();
            assertEquals(HeartbeatBatcher.MAX_BATCH, between.get(10, TimeUnit.SECONDS));
            all.get(10, TimeUnit.SECONDS);
            assertEquals(count, answered.get());
        }
    }

    /**
     * A node forgets a result once it is acknowledged: an answer to a heartbeat reporting ended jobs
     * (or a welcome to a handshake reporting them) goes out only once what was written is durable,
     * and others of the same turn go at once. Without the hold, a crash right after the answer brought
     * a completed job back as running and ended it as lost.
     */
    @Test
    void answersAcknowledgingEndsWaitUntilTheEndsAreDurable() throws Exception {
        Cluster cluster = new Cluster(new PoolsConfig("t", Map.of("t", PoolTreeConfig.withPools("t",
                List.of(PoolConfig.builder("a").build())))), ClusterSettings.DEFAULT);
        Instant now = Instant.parse("2026-01-01T00:00:00Z");
        CompletableFuture<Void> durable = new CompletableFuture<>();
        AtomicInteger barriers = new AtomicInteger();
        HeartbeatBatcher.Gate gate = new HeartbeatBatcher.Gate(() -> true, () -> {
            barriers.incrementAndGet();
            return durable;
        }, false);
        try (SchedulerLoop loop = new SchedulerLoop(cluster)) {
            HeartbeatBatcher batcher = new HeartbeatBatcher(loop, () -> now, gate);
            List<Heartbeat.FinishedJob> ended = List.of(new Heartbeat.FinishedJob("j1", Heartbeat.Outcome.COMPLETED, 0, null));
            CompletableFuture<Void> quiet = new CompletableFuture<>();
            CompletableFuture<Void> reporting = new CompletableFuture<>();
            CountDownLatch hold = new CountDownLatch(1);
            loop.call(c -> {
                try {
                    return hold.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            batcher.submit(ImmediateEventExecutor.INSTANCE, new Heartbeat("n1", Set.of(), Resources.cpu(4), null,
                    List.of(), ended), decision -> reporting.complete(null), reporting::completeExceptionally);
            batcher.submit(ImmediateEventExecutor.INSTANCE, new Heartbeat("n2", Set.of(), Resources.cpu(4), null,
                    List.of(), List.of()), decision -> quiet.complete(null), quiet::completeExceptionally);
            hold.countDown();
            quiet.get(10, TimeUnit.SECONDS);
            // the turn is over (the quiet answer went out with it): the reporting one still waits
            loop.call(c -> null).get(10, TimeUnit.SECONDS);
            assertFalse(reporting.isDone(), "an end's acknowledgement went out before the end was durable");
            assertEquals(1, barriers.get(), "one wait for the turn");
            CompletableFuture<Throwable> welcomed = new CompletableFuture<>();
            batcher.acknowledge(new Heartbeat("n3", Set.of(), Resources.cpu(4), null, List.of(), ended), welcomed::complete);
            assertFalse(welcomed.isDone(), "a welcome acknowledging ends went out before they were durable");
            CompletableFuture<Throwable> plain = new CompletableFuture<>();
            batcher.acknowledge(new Heartbeat("n4", Set.of(), Resources.cpu(4), null, List.of(), List.of()), plain::complete);
            assertNull(plain.get(10, TimeUnit.SECONDS), "a welcome acknowledging nothing goes at once");
            durable.complete(null);
            reporting.get(10, TimeUnit.SECONDS);
            assertNull(welcomed.get(10, TimeUnit.SECONDS));
        }
    }

    /** An end that could not be written is not acknowledged: the node gets the failure and reports the end again. */
    @Test
    void anEndThatCouldNotBeWrittenIsNotAcknowledged() throws Exception {
        Cluster cluster = new Cluster(new PoolsConfig("t", Map.of("t", PoolTreeConfig.withPools("t",
                List.of(PoolConfig.builder("a").build())))), ClusterSettings.DEFAULT);
        HeartbeatBatcher.Gate gate = new HeartbeatBatcher.Gate(() -> true,
                () -> CompletableFuture.failedFuture(new IllegalStateException("the journal cannot write: disk full")), false);
        try (SchedulerLoop loop = new SchedulerLoop(cluster)) {
            HeartbeatBatcher batcher = new HeartbeatBatcher(loop, () -> Instant.EPOCH, gate);
            CompletableFuture<Throwable> outcome = new CompletableFuture<>();
            batcher.submit(ImmediateEventExecutor.INSTANCE, new Heartbeat("n1", Set.of(), Resources.cpu(4), null, List.of(),
                    List.of(new Heartbeat.FinishedJob("j1", Heartbeat.Outcome.COMPLETED, 0, null))),
                    decision -> outcome.complete(null), outcome::complete);
            Throwable why = outcome.get(10, TimeUnit.SECONDS);
            assertTrue(why != null && String.valueOf(why.getMessage()).contains("disk full"), "refused: " + why);
        }
    }
}
