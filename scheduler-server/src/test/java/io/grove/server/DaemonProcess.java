package io.grove.server;

import io.grove.testing.Ports;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The scheduler daemon as a process of its own, for tests that kill it with SIGKILL and start it again. */
final class DaemonProcess implements AutoCloseable {

    final Process process;
    final int httpPort;
    final int nodePort;
    /** What it printed up to its ready line. */
    final String startOutput;

    private DaemonProcess(Process process, int httpPort, int nodePort, String startOutput) {
        this.process = process;
        this.startOutput = startOutput;
        this.httpPort = httpPort;
        this.nodePort = nodePort;
    }

    /** Starts the daemon on {@code data} and returns once it says it is ready. */
    static DaemonProcess start(Path config, Path data) throws Exception {
        return start(List.of(), config, data);
    }

    /** As above, run by {@code launcher} (e.g. {@code nohup}). */
    static DaemonProcess start(List<String> launcher, Path config, Path data) throws Exception {
        return start(launcher, config, data, List.of("--node-port", "0", "--http-port", "0"));
    }

    /** As above, with more of {@link SchedulerMain}'s options (ports, ZooKeeper, the accounting database). */
    static DaemonProcess start(List<String> launcher, Path config, Path data, List<String> options) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(launcher);
        command.addAll(List.of(java, "-cp", System.getProperty("java.class.path"),
                SchedulerMain.class.getName(), "--config", config.toString(), "--data-dir", data.toString(),
                "--fair-share-update-period-ms", "50"));
        command.addAll(options);
        Process daemon = new ProcessBuilder(command).redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(daemon.getInputStream(), StandardCharsets.UTF_8));
        StringBuilder seen = new StringBuilder();
        for (String line = out.readLine(); line != null; line = out.readLine()) {
            seen.append(line).append('\n');
            if (line.startsWith("ready ")) {
                int http = 0;
                int node = 0;
                for (String part : line.split(" ")) {
                    if (part.startsWith("node_port=")) {
                        node = Integer.parseInt(part.substring(10));
                    } else if (part.startsWith("http_port=")) {
                        http = Integer.parseInt(part.substring(10));
                    }
                }
                Thread drain = new Thread(() -> out.lines().forEach(l -> { }), "daemon-output");
                drain.setDaemon(true);
                drain.start();
                return new DaemonProcess(daemon, http, node, seen.toString());
            }
        }
        Ports.refuseIfTaken(seen.toString());
        throw new AssertionError("the daemon did not start:\n" + seen);
    }

    /** SIGKILL: nothing of the daemon's own shutdown runs. */
    void kill() throws InterruptedException {
        process.destroyForcibly().waitFor();
    }

    @Override
    public void close() throws InterruptedException {
        kill();
    }
}
