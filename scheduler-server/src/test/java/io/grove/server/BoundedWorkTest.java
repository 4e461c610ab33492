package io.grove.server;

import io.grove.testing.Await;
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

    static final String MANY = """
            pool_trees:
              physical:
                pools:
                  big: {max_operation_count: 5000, max_running_operation_count: 5000}
            """;

    @Test
    void listsComeInPagesBehindTheHeartbeats(@TempDir Path dir) throws Exception {
        DaemonSettings settings = DaemonSettings.defaults(DaemonFixture.config(dir, MANY), dir.resolve("data"))
                .withPorts(0, 0).withPeriods(Duration.ofSeconds(1), Duration.ofHours(1));
        ExecutorService users = Executors.newFixedThreadPool(50);
        try (SchedulerDaemon daemon = SchedulerDaemon.start(settings, Clock.SYSTEM);
                DaemonFixture fixture = new DaemonFixture().at(daemon.httpPort(), daemon.nodePort());
                DaemonFixture.FakeNode node = fixture.node("n1", 8)) {
            List<Future<String>> submitted = new ArrayList<>();
            for (int i = 0; i < 1_500; i++) {
                submitted.add(users.submit(() -> fixture.submit("big", 1)));
            }
            java.util.Set<String> ids = new java.util.HashSet<>();
            for (Future<String> id : submitted) {
                ids.add(id.get());
            }
            // paging through gives each operation once, in submission order
            List<String> paged = new ArrayList<>();
            String cursor = null;
            int pages = 0;
            do {
                java.net.http.HttpResponse<String> page = fixture.http.send(java.net.http.HttpRequest.newBuilder(
                        java.net.URI.create("http://127.0.0.1:" + daemon.httpPort() + "/api/v1/operations?limit=400"
                                + (cursor == null ? "" : "&cursor=" + cursor))).header("X-Grove-User", "alice").build(),
                        java.net.http.HttpResponse.BodyHandlers.ofString());
                assertEquals(200, page.statusCode(), page.body());
                fixture.json.readTree(page.body()).forEach(op -> paged.add(op.get("id").asText()));
                cursor = page.headers().firstValue("X-Next-Cursor").orElse(null);
                pages++;
            } while (cursor != null);
            assertEquals(4, pages);
            assertEquals(ids, new java.util.HashSet<>(paged));
            assertEquals(1_500, paged.size());
            for (int i = 1; i < paged.size(); i++) {
                assertTrue(Long.parseLong(paged.get(i).substring(3)) > Long.parseLong(paged.get(i - 1).substring(3)));
            }
            // a page is at most 1,000; a cursor must name an operation
            DaemonFixture.Reply tooLong = fixture.get("/api/v1/operations?limit=100000");
            assertEquals(400, tooLong.status(), tooLong.toString());
            assertTrue(tooLong.body().get("message").asText().contains("X-Next-Cursor"), tooLong.toString());
            assertEquals("BAD_CURSOR", fixture.get("/api/v1/operations?cursor=op-x%0a").body().get("code").asText());
            assertEquals("BAD_CURSOR", fixture.get("/api/v1/operations/" + paged.get(0) + "/jobs?cursor=-1")
                    .body().get("code").asText());
            // 200 reads of the longest page at once, while a node heartbeats back to back
            try (Heartbeats heartbeats = new Heartbeats(node)) {
                List<Future<DaemonFixture.Reply>> reads = new ArrayList<>();
                for (int i = 0; i < 200; i++) {
                    reads.add(users.submit(() -> fixture.get("/api/v1/operations?limit=1000")));
                }
                for (Future<DaemonFixture.Reply> read : reads) {
                    assertEquals(1000, read.get().body().size());
                }
                assertTrue(heartbeats.count.get() > 0);
                long longest = Duration.ofNanos(heartbeats.longestNanos.get()).toMillis();
                assertTrue(longest < 1_000, "a heartbeat's round trip took " + longest + " ms during the reads");
            }
        } finally {
            users.shutdownNow();
        }
    }

    @Test
    void aWhatIfWhoseClientLeftIsDropped(@TempDir Path dir) throws Exception {
        try (SchedulerDaemon daemon = start(dir);
                DaemonFixture fixture = new DaemonFixture().at(daemon.httpPort(), daemon.nodePort())) {
            byte[] candidate = bigCandidate(40_000).getBytes(java.nio.charset.StandardCharsets.UTF_8);
            try (java.net.Socket socket = new java.net.Socket("127.0.0.1", daemon.httpPort())) {
                socket.getOutputStream().write(("POST /api/v1/config/diff HTTP/1.1\r\nHost: x\r\nX-Grove-User: alice\r\n"
                        + "Content-Length: " + candidate.length + "\r\n\r\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
                socket.getOutputStream().write(candidate);
                socket.getOutputStream().flush();
            }
            // parsed while its client leaves: the rest of its work is skipped
            Await.until("the what-if to be dropped", () -> {
                try {
                    return fixture.get("/metrics").body().asText().contains("grove_api_abandoned_total 1.0");
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            });
            assertEquals(200, fixture.sendAs("alice", "POST", "/api/v1/config/diff", DaemonFixture.POOLS).status(),
                    "its place is free again");
        }
    }
}
