package io.grove.cli;

import io.grove.agent.AgentDaemon;
import io.grove.agent.AgentSettings;
import io.grove.agent.MachineResources;
import io.grove.agent.job.ProcessJobRunner;
import io.grove.cli.client.CliException;
import io.grove.cli.client.ExitCodes;
import io.grove.cli.client.SchedulerClient;
import io.grove.cli.client.Target;
import io.grove.cli.out.Format;
import io.grove.core.node.NodeTopology;
import io.grove.core.resource.Resources;
import io.grove.http.DaemonThreads;
import io.grove.server.Clock;
import io.grove.server.DaemonSettings;
import io.grove.server.SchedulerDaemon;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** {@code grove local}: a scheduler and agents in one process, on loopback. */
@Command(name = "local", mixinStandardHelpOptions = true,
        description = {"Runs a whole cluster on this machine: a scheduler and N agents in one process.",
            "",
            "The agents share this machine's CPUs and memory; everything is on loopback, with the example pools of "
                + "config/pools.yaml. Prints where the API is and how to submit. Ctrl-C stops everything (jobs are "
                + "killed, state is saved in the data directory and comes back at the next start).",
            "",
            "Examples:",
            "  grove local",
            "  grove local --agents 4 --demo",
            "  grove local --config my-pools.yaml --data-dir /tmp/grove"})
final class LocalCommand implements Callable<Integer> {

    @Option(names = "--agents", defaultValue = "2", description = "how many node agents (default: ${DEFAULT-VALUE})")
    int agents;

    @Option(names = "--config", paramLabel = "FILE",
            description = "the pools file (default: config/pools.yaml if it is here, else the built-in copy of it)")
    Path config;

    @Option(names = "--data-dir", paramLabel = "DIR",
            description = "journal and agents' work directories (default: $XDG_DATA_HOME/grove/local, i.e. ~/.local/share/grove/local)")
    Path dataDir;

    /** The port the commands' scheduler is at unless {@code GROVE_SCHEDULER} or {@code --scheduler} say otherwise. */
    static final int DEFAULT_HTTP_PORT = 8080;

    @Option(names = "--http-port", defaultValue = "" + DEFAULT_HTTP_PORT, description = "the API's port (default: ${DEFAULT-VALUE})")
    int httpPort;

    @Option(names = "--node-port", defaultValue = "7077", description = "the node port (default: ${DEFAULT-VALUE})")
    int nodePort;

    @Option(names = "--demo", description = "also submit a few operations into different pools, as different users")
    boolean demo;

    @Option(names = "--log-level", defaultValue = "warn",
            description = "what the daemons log to stderr: error, warn, info, debug (default: ${DEFAULT-VALUE})")
    String logLevel;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** Set by tests: return once the cluster is up instead of waiting for Ctrl-C. */
    CountDownLatch stop;
    LocalCluster running;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
            System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", logLevel);
        }
        try {
            if (agents < 1 || agents > 64) {
                throw new CliException(ExitCodes.USAGE, "--agents must be between 1 and 64, got " + agents);
            }
            Path data = dataDir != null ? dataDir : defaultDataDir();
            Files.createDirectories(data);
            Resources each = LocalCluster.agentResources(agents);
            Path pools = poolsFile(data, each.times(agents));
            LocalCluster cluster = LocalCluster.start(pools, data, agents, each, nodePort, httpPort);
            running = cluster;
            CountDownLatch stopped = stop != null ? stop : new CountDownLatch(1);
            if (stop == null) {
                Runtime.getRuntime().addShutdownHook(DaemonThreads.shutdownHook("grove-local-shutdown", () -> {
                    System.out.println("\nstopping: killing jobs, saving state ...");
                    cluster.close();
                    System.out.println("stopped; state kept in " + data);
                    System.out.flush();
                    stopped.countDown();
                }));
            }
            banner(out, cluster, pools, data);
            if (demo) {
                Demo.submit(new SchedulerClient(new Target(URI.create("http://127.0.0.1:" + cluster.httpPort()), "demo",
                        "grove local")), out);
            }
            out.flush();
            if (stop == null) {
                stopped.await();
            }
            return ExitCodes.OK;
        } catch (CliException e) {
            err.println("grove local: " + e.getMessage());
            err.flush();
            return e.exitCode();
        } catch (IOException | SchedulerDaemon.DaemonException e) {
            err.println("grove local: " + e.getMessage());
            err.flush();
            return ExitCodes.FAILED;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ExitCodes.FAILED;
        }
    }

    /**
     * The pools file: {@code --config} as it is; else the example ({@code config/pools.yaml} here,
     * or the one built in) sized to the agents, written afresh into the data directory.
     */
    private Path poolsFile(Path data, Resources total) throws IOException, CliException {
        if (config != null) {
            if (!Files.isRegularFile(config)) {
                throw new CliException(ExitCodes.USAGE, "no pools file " + config);
            }
            return config;
        }
        Path here = Path.of("config", "pools.yaml");
        String example;
        if (Files.isRegularFile(here)) {
            example = Files.readString(here);
        } else {
            try (InputStream in = LocalCommand.class.getResourceAsStream("/grove/config/pools.yaml")) {
                if (in == null) {
                    throw new CliException(ExitCodes.USAGE, "no pools file: give --config FILE");
                }
                example = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
        }
        Path sized = data.resolve("pools.yaml");
        Files.writeString(sized, ExamplePools.sized(example, total));
        return sized;
    }

    static Path defaultDataDir() {
        String xdg = System.getenv("XDG_DATA_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".local", "share");
        return base.resolve("grove").resolve("local");
    }

    private void banner(PrintWriter out, LocalCluster cluster, Path pools, Path data) {
        String grove = Files.isExecutable(Path.of("grove")) ? "./grove" : "grove";
        Resources each = cluster.agentResources();
        out.println("Grove is running: a scheduler and " + agents + " agent" + (agents == 1 ? "" : "s") + " on this machine ("
                + Format.cpu(each.cpu()) + " and " + Format.bytes(each.memory()) + " each).");
        out.println("  API     http://127.0.0.1:" + cluster.httpPort() + "/api/v1");
        out.println("  UI      http://127.0.0.1:" + cluster.httpPort() + "/ui/");
        out.println("  nodes   " + String.join(", ", cluster.agentIds()) + " (logs at " + String.join(", ",
                cluster.agentAddresses()) + ")");
        out.println("  pools   " + pools);
        out.println("  data    " + data);
        out.println();
        out.println("In another terminal:");
        if (cluster.httpPort() != DEFAULT_HTTP_PORT) {
            // the commands talk to 127.0.0.1:8080 unless told otherwise
            out.println("  export GROVE_SCHEDULER=http://127.0.0.1:" + cluster.httpPort());
        }
        out.println("  " + grove + " submit --pool etl --jobs 8 --cpu 0.5 --wait -- 'echo hello from job $GROVE_JOB_INDEX; sleep 5'");
        out.println("  " + grove + " pools                 # the pool tree, fair shares at work");
        out.println("  " + grove + " ops list --all-users  # operations, like squeue");
        out.println("  " + grove + " nodes");
        out.println("Stop with Ctrl-C.");
        out.flush();
    }

    /** The scheduler and its agents, started and stopped together. */
    static final class LocalCluster implements AutoCloseable {
        private final SchedulerDaemon scheduler;
        private final List<AgentDaemon> agents;
        private final Resources each;

        private LocalCluster(SchedulerDaemon scheduler, List<AgentDaemon> agents, Resources each) {
            this.scheduler = scheduler;
            this.agents = agents;
            this.each = each;
        }

        /** What each of {@code count} agents offers: an equal part of the machine. */
        static Resources agentResources(int count) {
            Resources machine = MachineResources.detect();
            double cpu = Math.max(0.5, Math.floor(machine.cpu() / count * 100) / 100);
            double memory = Math.floor(machine.memory() / count / (1 << 20)) * (1 << 20);
            return new Resources(Math.max(1, Math.floor(cpu * 4)), cpu, 0, memory, 0);
        }

        /** {@link #start(Path, Path, int, Resources, int, int)} with agents of an equal part of the machine each. */
        static LocalCluster start(Path pools, Path data, int count, int nodePort, int httpPort)
                throws SchedulerDaemon.DaemonException, IOException, InterruptedException, CliException {
            return start(pools, data, count, agentResources(count), nodePort, httpPort);
        }

        static LocalCluster start(Path pools, Path data, int count, Resources each, int nodePort, int httpPort)
                throws SchedulerDaemon.DaemonException, IOException, InterruptedException, CliException {
            return start(pools, data, count, each, nodePort, httpPort, i -> NodeTopology.NONE);
        }

        /** As above, agent {@code i} (from 1) saying it sits at {@code topologyOf.apply(i)}. */
        static LocalCluster start(Path pools, Path data, int count, Resources each, int nodePort, int httpPort,
                IntFunction<NodeTopology> topologyOf)
                throws SchedulerDaemon.DaemonException, IOException, InterruptedException, CliException {
            return start(pools, data, count, each, nodePort, httpPort, topologyOf, i -> List.of());
        }

        /** As above, agent {@code i} (from 1) with the tags {@code tagsOf.apply(i)}. */
        static LocalCluster start(Path pools, Path data, int count, Resources each, int nodePort, int httpPort,
                IntFunction<NodeTopology> topologyOf, IntFunction<List<String>> tagsOf)
                throws SchedulerDaemon.DaemonException, IOException, InterruptedException, CliException {
            DaemonSettings settings = DaemonSettings.defaults(pools, data.resolve("scheduler"))
                    .withBindAddress("127.0.0.1").withPorts(nodePort, httpPort);
            SchedulerDaemon scheduler;
            try {
                scheduler = SchedulerDaemon.start(settings, Clock.SYSTEM);
            } catch (SchedulerDaemon.DaemonException e) {
                throw e;
            } catch (RuntimeException e) {
                throw new CliException(ExitCodes.FAILED, "cannot start the scheduler on ports " + nodePort + " and "
                        + httpPort + " (" + e.getMessage() + "); is another one running? choose others with "
                        + "--node-port and --http-port");
            }
            List<AgentDaemon> agents = new ArrayList<>();
            try {
                for (int i = 1; i <= count; i++) {
                    AgentSettings agent = AgentSettings.defaults("127.0.0.1", scheduler.nodePort(),
                            data.resolve("agents").resolve("local-" + i), each).withNodeId("local-" + i).withPorts(0, 0)
                            .withTimings(Duration.ofSeconds(1), Duration.ofMillis(100)).toBuilder()
                            .topology(topologyOf.apply(i)).tags(tagsOf.apply(i)).build();
                    agents.add(AgentDaemon.start(agent, ProcessJobRunner.system()));
                }
                for (AgentDaemon agent : agents) {
                    agent.welcomed().get(30, TimeUnit.SECONDS);
                }
            } catch (Exception e) {
                agents.forEach(AgentDaemon::close);
                scheduler.close();
                throw new CliException(ExitCodes.FAILED, "the agents did not start: " + e.getMessage());
            }
            return new LocalCluster(scheduler, agents, each);
        }

        int httpPort() {
            return scheduler.httpPort();
        }

        Resources agentResources() {
            return each;
        }

        List<String> agentIds() {
            return agents.stream().map(AgentDaemon::nodeId).toList();
        }

        List<String> agentAddresses() {
            return agents.stream().map(a -> "127.0.0.1:" + a.httpPort()).toList();
        }

        @Override
        public void close() {
            agents.forEach(AgentDaemon::close);
            scheduler.close();
        }
    }
}
