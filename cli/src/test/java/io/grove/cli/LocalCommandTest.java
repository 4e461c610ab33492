package io.grove.cli;


import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.grove.cli.client.ExitCodes;
import io.grove.testing.Await;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code grove local}: the banner, the demo, and a clean stop that keeps the state. */
class LocalCommandTest {

    @Test
    void theBannerSaysWhereTheApiIsAndTheDemoSubmits(@TempDir Path dir) throws Exception {
        LocalCommand local = new LocalCommand();
        local.stop = new CountDownLatch(0);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine commandLine = new CommandLine(local);
        commandLine.setOut(new PrintWriter(out));
        commandLine.setErr(new PrintWriter(err));
        int code = commandLine.execute("--agents", "1", "--http-port", "0", "--node-port", "0", "--data-dir",
                dir.toString(), "--demo");
        try {
            assertEquals(0, code, err.toString());
            String text = out.toString();
            assertTrue(text.startsWith("Grove is running: a scheduler and 1 agent on this machine"), text);
            assertTrue(text.contains("  API     http://127.0.0.1:" + local.running.httpPort() + "/api/v1"), text);
            assertTrue(text.contains("submit --pool etl --jobs 8"), text);
            assertTrue(text.contains("In another terminal:\n  export GROVE_SCHEDULER=http://127.0.0.1:"
                    + local.running.httpPort() + "\n"), "not on 8080: the commands are pointed here: " + text);
            assertTrue(text.contains("alice -> etl: 40 jobs of 0.25 cpu"), text);
            assertTrue(text.contains("carol -> research/carol (ephemeral)"), text);
            assertTrue(text.contains("erin -> serving-batch: a gang of 2 ranks of 0.25 cpu, started together"), text);
            GroveCliTest.Run ops = GroveCliTest.grove("ops", "list", "--all-users", "--scheduler",
                    "http://127.0.0.1:" + local.running.httpPort());
            assertEquals(6, ops.out().lines().count(), ops.out());
            // the example is sized to this machine: every demo pool has a visible share at once
            java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
            java.net.URI pools = java.net.URI.create("http://127.0.0.1:" + local.running.httpPort()
                    + "/api/v1/pool_trees/physical/pools");
            Await.untilChecked("every demo pool's fair share is at least 5% of the cluster", () -> {
                JsonNode tree = new ObjectMapper().readTree(http.send(java.net.http.HttpRequest.newBuilder(pools).header(
                        "X-Grove-User", "demo").build(), java.net.http.HttpResponse.BodyHandlers.ofString()).body());
                java.util.Map<String, Double> shares = new java.util.HashMap<>();
                tree.forEach(pool -> shares.put(pool.path("name").asText(), pool.at("/fair_share/total/cpu").asDouble()));
                return java.util.stream.Stream.of("etl", "analytics", "research", "burst")
                        .allMatch(pool -> shares.getOrDefault(pool, 0.0) >= 0.05);
            });
            assertTrue(Files.readString(dir.resolve("pools.yaml")).startsWith("# The example pools sized by grove local"));
        } finally {
            local.running.close();
        }
    }

    @Test
    void aTakenPortIsNamedWithItsOption(@TempDir Path dir) throws Exception {
        try (ServerSocket held = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            LocalCommand local = new LocalCommand();
            local.stop = new CountDownLatch(0);
            StringWriter err = new StringWriter();
            CommandLine commandLine = new CommandLine(local);
            commandLine.setOut(new PrintWriter(new StringWriter()));
            commandLine.setErr(new PrintWriter(err));
            int code = commandLine.execute("--agents", "1", "--http-port", String.valueOf(held.getLocalPort()),
                    "--node-port", "0", "--data-dir", dir.toString());
            assertEquals(ExitCodes.FAILED, code);
            assertEquals("grove local: cannot listen for the API on 127.0.0.1:" + held.getLocalPort() + ": the address is "
                    + "in use (another Grove, or another program, listens there); choose another port with --http-port\n",
                    err.toString());
        }
    }

    @Test
    void completionScripts() {
        GroveCliTest.Run bash = GroveCliTest.grove("completion", "bash");
        assertEquals(0, bash.exitCode());
        assertTrue(bash.out().contains("complete -F") && bash.out().contains("submit"), bash.out());
        assertTrue(GroveCliTest.grove("completion", "zsh").out().startsWith("autoload -U +X compinit"));
        assertEquals(2, GroveCliTest.grove("completion", "fish").exitCode());
    }

    @Test
    void ctrlCKillsTheJobsAndKeepsTheState(@TempDir Path dir) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        Process process = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), Grove.class.getName(),
                "local", "--agents", "1", "--http-port", "0", "--node-port", "0",
                "--data-dir", dir.toString(), "--config", pools(dir).toString()).redirectErrorStream(true).start();
        BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        StringBuilder seen = new StringBuilder();
        String line;
        while ((line = lines.readLine()) != null && !line.startsWith("Stop with Ctrl-C")) {
            seen.append(line).append('\n');
        }
        assertTrue(line != null, "grove local did not start:\n" + seen);
        // the ports it was given, 0, are the kernel's choice: the API's is in what it printed
        Matcher api = Pattern.compile("API +(http://127\\.0\\.0\\.1:\\d+)/api/v1").matcher(seen);
        assertTrue(api.find(), seen.toString());
        String url = api.group(1);
        String id = GroveCliTest.grove("submit", "--scheduler", url, "--cpu", "0.25", "--", "sleep 300").out().strip();
        Path jobs = dir.resolve("agents/local-1/jobs");
        Await.until("the job's record", () -> Files.exists(jobs.resolve(id + "-1/job.json")));
        long pid = new ObjectMapper().readTree(jobs.resolve(id + "-1/job.json").toFile()).get("pid").asLong();

        StringBuffer rest = new StringBuffer();
        Thread drain = new Thread(() -> lines.lines().forEach(l -> rest.append(l).append('\n')));
        drain.start();
        // SIGTERM, as Ctrl-C's SIGINT: the shutdown hook runs (Process.destroy would close our end of the output)
        new ProcessBuilder("bash", "-c", "kill -TERM " + process.pid()).start().waitFor();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS));
        drain.join(10_000);
        assertTrue(rest.toString().contains("stopped; state kept in " + dir), rest.toString());
        assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "the job was killed");

        try (LocalCommand.LocalCluster again = LocalCommand.LocalCluster.start(pools(dir), dir, 1, 0, 0)) {
            JsonNode op = new ObjectMapper().readTree(GroveCliTest.grove("ops", "get", id, "-o", "json", "--scheduler",
                    "http://127.0.0.1:" + again.httpPort()).out());
            assertEquals("running", op.get("state").asText(), "the operation is back after the restart");
        }
    }

    private static Path pools(Path dir) throws Exception {
        Path file = dir.resolve("pools.yaml");
        if (!Files.exists(file)) {
            Files.writeString(file, CliClusterTest.POOLS);
        }
        return file;
    }

}
