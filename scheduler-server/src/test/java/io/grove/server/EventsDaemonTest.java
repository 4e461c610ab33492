package io.grove.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.grove.testing.Await;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /api/v1/events}: a stream hears submissions and ends as they happen, only what its
 * filter takes, and a client that comes back with {@code Last-Event-ID} misses nothing.
 */
class EventsDaemonTest {

    final HttpClient http = HttpClient.newHttpClient();
    final ObjectMapper json = new ObjectMapper();

    /** The lines of an event stream, as they come. */
    static final class Lines {
        final List<String> seen = new CopyOnWriteArrayList<>();
        volatile HttpResponse<Stream<String>> response;

        List<JsonNode> data(ObjectMapper json) {
            return seen.stream().filter(line -> line.startsWith("data: ")).map(line -> {
                try {
                    return json.readTree(line.substring(6));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }).toList();
        }
    }

    Lines open(int port, String query, String lastEventId) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/v1/events" + query));
        if (lastEventId != null) {
            request.header("Last-Event-ID", lastEventId);
        }
        Lines lines = new Lines();
        http.sendAsync(request.build(), HttpResponse.BodyHandlers.ofLines()).thenAccept(response -> {
            lines.response = response;
            new Thread(() -> response.body().forEach(lines.seen::add), "event-reader").start();
        });
        Await.until("the stream's head", () -> lines.response != null);
        return lines;
    }

    String submit(int port, String pool) throws Exception {
        HttpResponse<String> created = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                + "/api/v1/operations")).header("X-Grove-User", "alice").POST(HttpRequest.BodyPublishers.ofString(
                "{\"pool\": \"" + pool + "\", \"tasks\": {\"main\": {\"job_count\": 1, \"cpu\": 1, \"command\": \"true\"}}}"))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(201, created.statusCode(), created.body());
        return json.readTree(created.body()).get("id").asText();
    }

    void abort(int port, String id) throws Exception {
        assertEquals(200, http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/v1/operations/"
                + id + "/abort")).header("X-Grove-User", "alice").POST(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString()).statusCode());
    }

    @Test
    void aStreamHearsWhatHappensAndAClientComingBackMissesNothing(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("pools.yaml"), "pool_trees:\n  physical:\n    pools:\n      prod:\n        pools:\n"
                + "          nightly: {}\n      other: {}\n");
        DaemonSettings settings = DaemonSettings.defaults(dir.resolve("pools.yaml"), dir.resolve("data")).withPorts(0, 0);
        try (SchedulerDaemon daemon = SchedulerDaemon.start(settings, Clock.SYSTEM)) {
            int port = daemon.httpPort();
            Lines all = open(port, "", null);
            Lines prod = open(port, "?pool=prod", null);
            assertEquals(200, all.response.statusCode());
            assertTrue(all.response.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream"));

            String nightly = submit(port, "nightly");
            String other = submit(port, "other");
            abort(port, nightly);
            Await.until("both submissions and the abort", () -> all.data(json).size() >= 3);
            List<JsonNode> events = all.data(json);
            assertEquals(nightly, events.get(0).get("operation_id").asText());
            assertEquals("pending", events.get(0).get("state").asText());
            assertEquals("operation", events.get(0).get("type").asText());
            assertEquals("nightly", events.get(0).get("pool").asText());
            assertEquals(other, events.get(1).get("operation_id").asText());
            assertEquals("aborted", events.get(2).get("state").asText());
            assertTrue(all.seen.contains("event: operation"), all.seen.toString());

            Await.until("prod's stream hears nightly", () -> prod.data(json).size() >= 2);
            assertTrue(prod.data(json).stream().allMatch(event -> event.get("operation_id").asText().equals(nightly)),
                    "a pool's stream takes the pools below it, and only them: " + prod.data(json));

            // a client that comes back after the first event gets the rest again, in order
            String firstId = all.seen.stream().filter(line -> line.startsWith("id: ")).findFirst().orElseThrow()
                    .substring(4);
            Lines again = open(port, "", firstId);
            Await.until("the events after the first, replayed", () -> again.data(json).size() >= 2);
            assertEquals(other, again.data(json).get(0).get("operation_id").asText());
            assertEquals("aborted", again.data(json).get(1).get("state").asText());

            Lines one = open(port, "?operation=" + other, null);
            abort(port, other);
            Await.until("the other's abort", () -> !one.data(json).isEmpty());
            assertEquals(List.of(other), one.data(json).stream().map(event -> event.get("operation_id").asText()).toList());

            Lines forgotten = open(port, "", "999999");
            Await.until("a reset for a number never given", () -> forgotten.seen.contains("event: reset"));
            HttpResponse<String> bad = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                    + "/api/v1/events")).header("Last-Event-ID", "yesterday").build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(400, bad.statusCode(), bad.body());
        }
    }
}
