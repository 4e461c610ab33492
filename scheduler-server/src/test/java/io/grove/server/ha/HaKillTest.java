package io.grove.server.ha;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.grove.server.SchedulerMain;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Schedulers as processes of their own: the leader is killed with SIGKILL (its disk is never read
 * again) and the standby takes over within the session timeout with every acknowledged operation.
 */
public class HaKillTest {

    final List<Process> processes = new ArrayList<>();
    final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    final ObjectMapper json = new ObjectMapper();

    @AfterEach
    void stop() {
        processes.forEach(Process::destroyForcibly);
    }

    /** Ports handed out so far: the kernel may give a just-closed port again, a test must not. */
    private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

    public static int freePort() throws Exception {
        while (true) {
            try (ServerSocket socket = new ServerSocket(0)) {
                if (HANDED_OUT.add(socket.getLocalPort())) {
                    return socket.getLocalPort();
                }
            }
        }
    }

    Process scheduler(Path config, Path data, String zookeeper, int httpPort) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process process = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                SchedulerMain.class.getName(), "--config", config.toString(), "--data-dir", data.toString(),
                "--node-port", Integer.toString(freePort()), "--http-port", Integer.toString(httpPort),
                "--fair-share-update-period-ms", "100", "--zookeeper", zookeeper,
                "--zookeeper-session-timeout-ms", "3000").redirectErrorStream(true).start();
        processes.add(process);
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        StringBuilder seen = new StringBuilder();
        for (String line = out.readLine(); line != null; line = out.readLine()) {
            seen.append(line).append('\n');
            if (line.startsWith("ready ")) {
                Thread drain = new Thread(() -> out.lines().forEach(l -> { }), "scheduler-output");
                drain.setDaemon(true);
                drain.start();
                return process;
            }
        }
        throw new AssertionError("the scheduler did not start:\n" + seen);
    }

    JsonNode get(int port, String path) {
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                    .build(), HttpResponse.BodyHandlers.ofString());
            return json.readTree(response.body());
        } catch (Exception e) {
            return json.createObjectNode();
        }
    }

    String role(int port) {
        return get(port, "/healthz").path("role").asText();
    }

    static long awaitNanos(String what, java.util.function.BooleanSupplier condition) {
        long start = System.nanoTime();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - start > TimeUnit.SECONDS.toNanos(30)) {
                throw new AssertionError("not within 30 s: " + what);
            }
            LockSupport.parkNanos(10_000_000);
        }
        return System.nanoTime() - start;
    }

    @Test
    void theStandbyTakesOverFromAKilledLeaderWithEveryAcknowledgedOperation(@TempDir Path dir) throws Exception {
        try (TestingServer zookeeper = new TestingServer(true)) {
            Path config = Files.writeString(dir.resolve("pools.yaml"), HaSchedulerTest.POOLS);
            int httpA = freePort();
            int httpB = freePort();
            Process a = scheduler(config, dir.resolve("a"), zookeeper.getConnectString(), httpA);
            awaitNanos("a leads", () -> role(httpA).equals("leader"));
            scheduler(config, dir.resolve("b"), zookeeper.getConnectString(), httpB);
            awaitNanos("b is a standby", () -> role(httpB).equals("standby"));

            List<String> acknowledged = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                HttpResponse<String> created = http.send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + httpA + "/api/v1/operations")).header("X-Grove-User", "alice")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"pool\": \"etl\", \"tasks\": {\"main\": "
                                + "{\"job_count\": 3, \"cpu\": 1, \"command\": \"true\"}}}")).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(201, created.statusCode(), created.body());
                acknowledged.add(json.readTree(created.body()).get("id").asText());
            }

            a.destroyForcibly();
            long takeover = awaitNanos("b leads", () -> role(httpB).equals("leader"));
            System.out.printf("takeover after SIGKILL of the leader: %d ms (session timeout 3000 ms)%n",
                    takeover / 1_000_000);
            assertTrue(takeover < TimeUnit.SECONDS.toNanos(10), "within the session timeout and a little");

            List<String> revived = new ArrayList<>();
            get(httpB, "/api/v1/operations").forEach(op -> revived.add(op.get("id").asText()));
            assertEquals(acknowledged, revived, "every acknowledged submission, in order");
            assertEquals(2, get(httpB, "/healthz").get("epoch").asLong());
        }
    }
}
