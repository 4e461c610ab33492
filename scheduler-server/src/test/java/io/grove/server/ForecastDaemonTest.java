package io.grove.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.grove.protocol.HeartbeatReply;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The explanation of a pending operation says when it should start, from the jobs that ran before. */
class ForecastDaemonTest {

    /** One pool, and starvation far away: nothing is preempted in the minute that matters. */
    static final String POOLS = """
            default_tree: physical
            pool_trees:
              physical:
                fair_share_starvation_timeout: 10m
                fair_share_aggressive_starvation_timeout: 20m
                pools:
                  prod: {}
            """;

    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-11-27T10:00:00Z"));

    /** A daemon of {@link #POOLS} whose fair share is updated when the test says. */
    static DaemonSettings settings(Path dir) throws Exception {
        return DaemonSettings.defaults(DaemonFixture.config(dir, POOLS), dir.resolve("data"))
                .withPorts(0, 0).withPeriods(Duration.ofSeconds(1), Duration.ofHours(1));
    }

    /**
     * History (alice's jobs in prod run a minute), then the node full with four more of them:
     * since when it is full.
     */
    private Instant fullAfterAMinuteOfHistory(SchedulerDaemon daemon, DaemonFixture users, DaemonFixture.FakeNode node)
            throws Exception {
        node.handshake();
        users.submit("prod", 4);
        daemon.updateFairShare();
        HeartbeatReply first = node.heartbeat();
        assertEquals(4, first.jobsToStart().size());
        now.set(now.get().plusSeconds(60));
        node.completeAll();
        node.heartbeat();
        users.submit("prod", 4);
        daemon.updateFairShare();
        assertEquals(4, node.heartbeat().jobsToStart().size());
        return now.get();
    }

    @Test
    void aPendingOperationBehindAFullNodeIsForecastToStartWhenItsJobsEnd(@TempDir Path dir) throws Exception {
        DaemonSettings settings = settings(dir);
        try (SchedulerDaemon daemon = SchedulerDaemon.start(settings, now::get);
                DaemonFixture users = new DaemonFixture().at(daemon.httpPort(), daemon.nodePort());
                DaemonFixture.FakeNode node = users.node("n1", 4)) {
            Instant fullSince = fullAfterAMinuteOfHistory(daemon, users, node);
            now.set(now.get().plusSeconds(10));
            String waiting = users.submit("prod", 4);
            daemon.updateFairShare();

            JsonNode explained = users.get("/api/v1/operations/" + waiting + "/explain").body();
            JsonNode forecast = explained.get("forecast");
            assertTrue(forecast.path("unknown").isMissingNode() || forecast.path("unknown").isNull(), explained.toString());
            assertEquals(fullSince.plusSeconds(60).toString(), forecast.at("/next_start/likely").asText(),
                    "when the running jobs end, a minute after they started: " + forecast);
            assertTrue(forecast.get("assumptions").toString().contains("about 60 s a job"), forecast.toString());
            JsonNode again = users.get("/api/v1/operations/" + waiting + "/explain").body().get("forecast");
            assertEquals(forecast, again, "kept until the next update");
            String expected = null;
            for (JsonNode summary : users.get("/api/v1/operations?forecast=true").body()) {
                if (summary.get("id").asText().equals(waiting)) {
                    expected = summary.path("expected_start").asText();
                }
            }
            assertEquals(fullSince.plusSeconds(60).toString(), expected, "the list says it too, with ?forecast=true");
            for (JsonNode summary : users.get("/api/v1/operations").body()) {
                assertTrue(summary.path("expected_start").isMissingNode(), "not unless asked: " + summary);
            }
        }
    }

    /**
     * Explanations of many operations asked at once share one forecast of the snapshot: the cost of
     * a hostile user explaining everything is one computation, not one per operation.
     */
    @Test
    void explanationsOfManyOperationsAtOnceShareOneForecast(@TempDir Path dir) throws Exception {
        DaemonSettings settings = settings(dir);
        try (SchedulerDaemon daemon = SchedulerDaemon.start(settings, now::get);
                DaemonFixture users = new DaemonFixture().at(daemon.httpPort(), daemon.nodePort());
                DaemonFixture.FakeNode node = users.node("n1", 2)) {
            node.handshake();
            List<String> waiting = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                waiting.add(users.submit("prod", 2));
            }
            daemon.updateFairShare();
            node.heartbeat();
            List<CompletableFuture<DaemonFixture.Reply>> asked = new ArrayList<>();
            for (String id : waiting) {
                asked.add(CompletableFuture.supplyAsync(() -> {
                    try {
                        return users.sendAs("mallory", "GET", "/api/v1/operations/" + id + "/explain", null);
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }));
            }
            int answered = 0;
            for (var reply : asked) {
                JsonNode forecast = reply.get().body().get("forecast");
                assertTrue(forecast != null && forecast.has("assumptions"), String.valueOf(forecast));
                answered++;
            }
            assertEquals(30, answered);
            String metrics = users.get("/metrics").body().asText();
            Matcher computed = Pattern.compile("grove_forecasts_computed_total ([0-9.]+)")
                    .matcher(metrics);
            assertTrue(computed.find(), metrics);
            assertEquals(1.0, Double.parseDouble(computed.group(1)), "one forecast for thirty explanations");
        }
    }

    /**
     * The list's START is made from the state after the last fair-share update: a heavier operation
     * submitted later goes ahead in a FIFO pool (sorted by weight first), and the next list says so
     * at once, not when a cached outlook expires.
     */
    @Test
    void theListsStartFollowsTheLastFairShareUpdate(@TempDir Path dir) throws Exception {
        String fifo = POOLS.replace("prod: {}", "prod: {mode: fifo}");
        DaemonSettings settings = DaemonSettings.defaults(DaemonFixture.config(dir, fifo), dir.resolve("data"))
                .withPorts(0, 0).withPeriods(Duration.ofSeconds(1), Duration.ofHours(1));
        try (SchedulerDaemon daemon = SchedulerDaemon.start(settings, now::get);
                DaemonFixture users = new DaemonFixture().at(daemon.httpPort(), daemon.nodePort());
                DaemonFixture.FakeNode node = users.node("n1", 4)) {
            Instant fullSince = fullAfterAMinuteOfHistory(daemon, users, node);
            String waiting = users.submit("prod", 4);
            daemon.updateFairShare();
            assertEquals(fullSince.plusSeconds(60).toString(), expectedStart(users, waiting));
            String heavier = users.send("POST", "/api/v1/operations", "pool: prod\nweight: 10\ntasks:\n  main: {job_count: 4, "
                    + "command: x, cpu: 1, memory: 1Gi}\n").body().get("id").asText();
            daemon.updateFairShare();
            assertEquals(fullSince.plusSeconds(60).toString(), expectedStart(users, heavier), "the heavier goes first");
            assertEquals(fullSince.plusSeconds(120).toString(), expectedStart(users, waiting),
                    "and the waiting one after it, said by the next list");
        }
    }

    private static String expectedStart(DaemonFixture users, String id) throws Exception {
        for (JsonNode summary : users.get("/api/v1/operations?forecast=true").body()) {
            if (summary.get("id").asText().equals(id)) {
                return summary.path("expected_start").asText();
            }
        }
        return null;
    }
}
