package io.grove.server.net;

import static org.junit.jupiter.api.Assertions.assertEquals;

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

/** A backlog of heartbeats is answered in turns of a bounded size, with the loop's other work in between. */
class HeartbeatBatcherTest {

    @Test
    void aBacklogIsAnsweredTurnByTurn() throws Exception {
        Cluster cluster = new Cluster(new PoolsConfig("t", Map.of("t", PoolTreeConfig.withPools("t",
                List.of(PoolConfig.builder("a").build())))), ClusterSettings.DEFAULT);
        Instant now = Instant.parse("2026-01-01T00:00:00Z");
        try (SchedulerLoop loop = new SchedulerLoop(cluster)) {
            HeartbeatBatcher batcher = new HeartbeatBatcher(loop, () -> now);
            int count = 3 * HeartbeatBatcher.MAX_BATCH + 10;
            // each node registered, as its handshake does
            loop.call(c -> {
                for (int i = 0; i < count; i++) {
                    c.report(new Heartbeat("n" + i, Set.of(), Resources.cpu(4), null, List.of(), List.of()), now);
                }
                return null;
            }).get(10, TimeUnit.SECONDS);
            CountDownLatch hold = new CountDownLatch(1);
            loop.call(c -> {
                try {
                    return hold.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
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
}
