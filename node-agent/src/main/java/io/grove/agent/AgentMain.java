package io.grove.agent;

import io.grove.agent.job.ProcessJobRunner;
import io.grove.core.resource.ResourceType;
import io.grove.core.resource.Resources;
import io.grove.http.DaemonThreads;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;

/**
 * Runs an agent until SIGTERM or Ctrl-C, printing {@code ready node_id=... http_port=...
 * broker_port=...} once its endpoints are open. {@code grove agent} is the command users run;
 * {@link #main} takes a few flags for tests and load drivers.
 */
public final class AgentMain {

    private AgentMain() {
    }

    public static void run(AgentSettings settings) throws Exception {
        AgentDaemon daemon = AgentDaemon.start(settings, ProcessJobRunner.system());
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(DaemonThreads.shutdownHook("grove-agent-shutdown", () -> {
            daemon.close();
            stopped.countDown();
        }));
        System.out.println("ready node_id=" + daemon.nodeId() + " http_port=" + daemon.httpPort() + " broker_port="
                + daemon.brokerPort());
        System.out.flush();
        stopped.await();
    }

    /** {@code --scheduler HOST:PORT --work-dir DIR [--node-id ID] [--cpu N] [--memory BYTES] [--http-port N] [--broker-port N]}. */
    public static void main(String[] args) throws Exception {
        String scheduler = "127.0.0.1:7077";
        Path work = null;
        String nodeId = null;
        Resources resources = MachineResources.detect();
        int httpPort = 0;
        int brokerPort = -1;
        for (int i = 0; i + 1 < args.length; i += 2) {
            String value = args[i + 1];
            switch (args[i]) {
                case "--scheduler" -> scheduler = value;
                case "--work-dir" -> work = Path.of(value);
                case "--node-id" -> nodeId = value;
                case "--cpu" -> resources = resources.with(ResourceType.CPU, Double.parseDouble(value))
                        .with(ResourceType.USER_SLOTS, Math.max(1, Math.floor(Double.parseDouble(value))));
                case "--memory" -> resources = resources.with(ResourceType.MEMORY, Double.parseDouble(value));
                case "--http-port" -> httpPort = Integer.parseInt(value);
                case "--broker-port" -> brokerPort = Integer.parseInt(value);
                default -> throw new IllegalArgumentException("unknown option " + args[i] + " in " + Arrays.toString(args));
            }
        }
        if (work == null) {
            throw new IllegalArgumentException("usage: AgentMain --scheduler HOST:PORT --work-dir DIR [...]");
        }
        int colon = scheduler.lastIndexOf(':');
        run(AgentSettings.defaults(scheduler.substring(0, colon), Integer.parseInt(scheduler.substring(colon + 1)), work,
                resources).withNodeId(nodeId).withPorts(httpPort, brokerPort));
    }
}
