package io.grove.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Requests whose work grows with their input or the cluster: bounded, and never in the way of heartbeats. */
class BoundedWorkTest {

    static SchedulerDaemon start(Path dir) throws Exception {
        DaemonSettings settings = DaemonSettings.defaults(DaemonFixture.config(dir, DaemonFixture.POOLS), dir.resolve("data"))
                .withPorts(0, 0).withPeriods(Duration.ofSeconds(1), Duration.ofHours(1));
        return SchedulerDaemon.start(settings, Clock.SYSTEM);
    }

    /** A node heartbeating back to back on a thread of its own, keeping its longest round trip. */
    static final class Heartbeats implements AutoCloseable {
        final AtomicLong longestNanos = new AtomicLong();
        final AtomicLong count = new AtomicLong();
        final AtomicBoolean stop = new AtomicBoolean();
        final Thread thread;

        Heartbeats(DaemonFixture.FakeNode node) throws Exception {
            node.handshake();
            thread = new Thread(() -> {
                while (!stop.get()) {
                    long started = System.nanoTime();
                    try {
                        node.heartbeat();
                    } catch (Exception e) {
                        throw new AssertionError(e);
                    }
                    longestNanos.accumulateAndGet(System.nanoTime() - started, Math::max);
                    count.incrementAndGet();
                }
            });
            thread.start();
        }

        @Override
        public void close() throws InterruptedException {
            stop.set(true);
            thread.join();
        }
    }

    /** A candidate pools file of {@code pools} pools, most of a megabyte. */
    static String bigCandidate(int pools) {
        StringBuilder text = new StringBuilder("default_tree: physical\npool_trees:\n  physical:\n    pools:\n"
                + "      prod: {weight: 3}\n      adhoc: {max_running_operation_count: 1}\n");
        for (int i = 0; i < pools; i++) {
            text.append("      p").append(i).append(": {}\n");
        }
        return text.toString();
    }

    @Test
    void whatIfsRunTwoAtATimeOffTheSchedulerThreadAndTheRestAre429(@TempDir Path dir) throws Exception {
        ExecutorService users = Executors.newFixedThreadPool(40);
        try (SchedulerDaemon daemon = start(dir);
                DaemonFixture fixture = new DaemonFixture().at(daemon.httpPort(), daemon.nodePort());
                DaemonFixture.FakeNode node = fixture.node("n1", 8)) {
            String candidate = bigCandidate(40_000);
            assertTrue(candidate.length() < 1 << 20, "within the API's body limit: " + candidate.length());
            for (int i = 0; i < 20; i++) {
                fixture.submit("prod", 2);
            }
            try (Heartbeats heartbeats = new Heartbeats(node)) {
                List<Future<DaemonFixture.Reply>> replies = new ArrayList<>();
                for (int i = 0; i < 40; i++) {
                    String user = "user" + (i % 20);
                    replies.add(users.submit(() -> fixture.sendAs(user, "POST", "/api/v1/config/diff", candidate)));
                }
                int ok = 0;
                int refused = 0;
                for (Future<DaemonFixture.Reply> reply : replies) {
                    DaemonFixture.Reply answer = reply.get();
                    if (answer.status() == 200) {
                        ok++;
                        assertEquals(40_000 + 3, answer.body().get("fair_shares").get("physical").size(),
                                "every pool's fair share, the root's included");
                    } else {
                        assertEquals(429, answer.status(), answer.toString());
                        assertEquals("TOO_MANY_WHAT_IFS", answer.body().get("code").asText());
                        refused++;
                    }
                }
                assertTrue(ok >= 1 && refused >= 20, ok + " answered, " + refused + " refused");
                assertTrue(heartbeats.count.get() > 0);
                long longest = Duration.ofNanos(heartbeats.longestNanos.get()).toMillis();
                assertTrue(longest < 2_000, "a heartbeat's round trip took " + longest + " ms during the what-ifs");
            }
            // once they are done, a what-if is answered again
            assertEquals(200, fixture.sendAs("user0", "POST", "/api/v1/config/diff", DaemonFixture.POOLS).status());
        } finally {
            users.shutdownNow();
        }
    }
}
