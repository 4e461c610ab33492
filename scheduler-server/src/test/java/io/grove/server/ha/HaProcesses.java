package io.grove.server.ha;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.grove.server.SchedulerMain;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Schedulers of a high-availability group as processes of their own, and how tests talk to them. */
public final class HaProcesses implements AutoCloseable {

    /** A scheduler process: its API and node ports. */
    record Scheduler(Process process, int http, int nodes) {
        long pid() {
            return process.pid();
        }
    }

    final List<Process> processes = new ArrayList<>();
    final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    final ObjectMapper json = new ObjectMapper();

    /** Starts a scheduler with {@code --zookeeper} and a 3 s session; returns once it is ready. */
    Scheduler start(Path config, Path data, String zookeeper) throws Exception {
        return io.grove.testing.Ports.bind(2, ports -> start(config, data, zookeeper, ports[0], ports[1]));
    }

    private Scheduler start(Path config, Path data, String zookeeper, int httpPort, int nodePort) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process process = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                SchedulerMain.class.getName(), "--config", config.toString(), "--data-dir", data.toString(),
                "--node-port", Integer.toString(nodePort), "--http-port", Integer.toString(httpPort),
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
                return new Scheduler(process, httpPort, nodePort);
            }
        }
        process.waitFor();
        // a port taken meanwhile reads "Address already in use" here: Ports.bind chooses others
        throw new IllegalStateException("the scheduler did not start:\n" + seen);
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

    HttpRequest submit(int port) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/v1/operations"))
                .header("X-Grove-User", "alice")
                .POST(HttpRequest.BodyPublishers.ofString("{\"pool\": \"etl\", \"tasks\": {\"main\": "
                        + "{\"job_count\": 3, \"cpu\": 1, \"command\": \"true\"}}}")).build();
    }

    /** Sends a signal (STOP, CONT) to a process, by the shell's own {@code kill} (no package needed). */
    static void signal(Scheduler scheduler, String signal) throws Exception {
        if (!signal.matches("[A-Z]+")) {
            throw new IllegalArgumentException("a signal's name, like STOP: " + signal);
        }
        Process kill = new ProcessBuilder("/bin/bash", "-c", "kill -" + signal + " " + scheduler.pid()).inheritIO().start();
        if (kill.waitFor() != 0) {
            throw new AssertionError("kill -" + signal + " " + scheduler.pid() + " failed");
        }
    }

    @Override
    public void close() {
        processes.forEach(Process::destroyForcibly);
    }
}
