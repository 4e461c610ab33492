package io.grove.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.locks.LockSupport;

/**
 * From a submission through the API to the job's own process running, on an idle cluster (a
 * {@code grove local}): each round submits one job whose command writes the wall-clock time it
 * runs at, waits for it, and takes the difference from the moment the request was sent.
 *
 * <pre>
 * java -cp bench/target/benchmarks.jar io.grove.bench.SubmitToRunning http://127.0.0.1:8080 200 /tmp/marks
 * </pre>
 */
public final class SubmitToRunning {

    private SubmitToRunning() {
    }

    public static void main(String[] args) throws Exception {
        String api = args.length > 0 ? args[0] : "http://127.0.0.1:8080";
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 100;
        Path marks = Path.of(args.length > 2 ? args[2] : "/tmp/grove-submit-marks");
        Files.createDirectories(marks);
        HttpClient http = HttpClient.newHttpClient();
        long[] latencies = new long[rounds];
        for (int round = -5; round < rounds; round++) {
            Path mark = marks.resolve("round-" + (round + 5));
            Files.deleteIfExists(mark);
            String body = "{\"pool\": \"research\", \"tasks\": {\"main\": {\"job_count\": 1, \"cpu\": 1, \"memory\": \"64Mi\", "
                    + "\"command\": \"date +%s%N > " + mark + "\"}}}";
            Instant at = Instant.now();
            long sent = at.getEpochSecond() * 1_000_000_000L + at.getNano();
            HttpResponse<String> created = http.send(HttpRequest.newBuilder(URI.create(api + "/api/v1/operations"))
                    .header("X-Grove-User", "bench").header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
            if (created.statusCode() != 201) {
                throw new IllegalStateException("submit failed: " + created.statusCode() + " " + created.body());
            }
            long deadline = System.nanoTime() + 30_000_000_000L;
            String ran = "";
            while (ran.isEmpty()) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("round " + round + ": the job did not run within 30 s");
                }
                LockSupport.parkNanos(1_000_000);
                if (Files.exists(mark)) {
                    ran = Files.readString(mark).strip();
                }
            }
            if (round >= 0) {
                latencies[round] = Long.parseLong(ran) - sent;
            }
            LockSupport.parkNanos(50_000_000);   // the job ends and its node reports it; the cluster is idle again
        }
        Arrays.sort(latencies);
        System.out.printf(Locale.ROOT, "submit to running, %d rounds: p50 %.1f ms, p90 %.1f ms, p99 %.1f ms, max %.1f ms%n",
                rounds, latencies[rounds / 2] / 1e6, latencies[rounds * 9 / 10] / 1e6, latencies[rounds * 99 / 100] / 1e6,
                latencies[rounds - 1] / 1e6);
    }
}
