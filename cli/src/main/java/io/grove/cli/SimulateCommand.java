package io.grove.cli;

import io.grove.config.LoadResult;
import io.grove.config.PoolsConfigLoader;
import io.grove.config.sim.SimReportWriter;
import io.grove.config.sim.WorkloadLoader;
import io.grove.config.yaml.Durations;
import io.grove.core.cluster.ClusterSettings;
import io.grove.core.pool.PoolsConfig;
import io.grove.core.sim.SimReport;
import io.grove.core.sim.Simulator;
import io.grove.core.sim.Workload;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code grove simulate}: the deterministic simulator over a pools file and a workload. */
@Command(
        name = "simulate",
        mixinStandardHelpOptions = true,
        description = {
            "Runs the real scheduler on a simulated cluster.",
            "",
            "Nodes heartbeat on a virtual clock, operations arrive as the workload says, fair shares are updated periodically, and "
                    + "invariants are checked after every event.",
            "",
            "Prints a summary per pool; --output writes summary.json, timeseries.csv and chart.html. "
                    + "The same seed gives the same run.",
            "",
            "Example: grove simulate --pools config/pools.yaml --workload config/workloads/example.yaml --output /tmp/sim"})
final class SimulateCommand implements Callable<Integer> {

    @Option(names = "--pools", required = true, paramLabel = "FILE", description = "the pool trees (pools.yaml)")
    Path pools;

    @Option(names = "--workload", required = true, paramLabel = "FILE", description = "nodes, operations and events")
    Path workload;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "1", description = "seed of every random choice (default: ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--duration", paramLabel = "D", defaultValue = "10m", description = "simulated time, e.g. 90s, 10m, 1d (default: ${DEFAULT-VALUE})")
    String duration;

    @Option(names = "--output", paramLabel = "DIR", description = "write summary.json, timeseries.csv and chart.html here")
    Path output;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        LoadResult<PoolsConfig> config = PoolsConfigLoader.load(pools);
        if (!config.ok()) {
            return Problems.report(err, "the pools file", config);
        }
        LoadResult<Workload> load = WorkloadLoader.load(workload);
        if (!load.ok()) {
            return Problems.report(err, "the workload", load);
        }
        Duration length;
        try {
            length = Durations.parse(duration);
        } catch (IllegalArgumentException e) {
            err.println("grove simulate: --duration: " + e.getMessage());
            return 2;
        }
        Simulator simulator = new Simulator(config.value(), load.value(), ClusterSettings.DEFAULT, seed, System::nanoTime);
        SimReport report;
        try {
            report = simulator.run(length);
        } catch (IllegalArgumentException e) {
            err.println("grove simulate: " + e.getMessage());
            return 1;
        }
        print(report, out);
        if (output != null) {
            try {
                SimReportWriter.write(report, output);
                out.println("wrote " + output.resolve("summary.json") + ", timeseries.csv and chart.html");
            } catch (IOException e) {
                err.println("grove simulate: cannot write " + output + ": " + e.getMessage());
                return 1;
            }
        }
        out.flush();
        return report.invariantViolations() == 0 ? 0 : 3;
    }

    private static void print(SimReport report, PrintWriter out) {
        out.printf(Locale.ROOT, "%-28s %10s %10s %10s %10s %10s%n", "POOL", "MEAN USE", "MEAN FAIR", "FINAL USE",
                "FINAL FAIR", "STARVING");
        for (Map.Entry<String, Map<String, SimReport.PoolSummary>> tree : report.pools().entrySet()) {
            for (Map.Entry<String, SimReport.PoolSummary> pool : tree.getValue().entrySet()) {
                SimReport.PoolSummary s = pool.getValue();
                String name = tree.getKey() + "/" + pool.getKey();
                out.printf(Locale.ROOT, "%-28s %9.1f%% %9.1f%% %9.1f%% %9.1f%% %9.0fs%n",
                        name.length() > 28 ? name.substring(0, 27) + "…" : name, 100 * s.meanUsageShare(),
                        100 * s.meanFairShare(), 100 * s.finalUsageShare(), 100 * s.finalFairShare(), s.starvingSeconds());
            }
        }
        out.println();
        out.printf(Locale.ROOT, "simulated %.0f s, seed %d: %d heartbeats, %d jobs started, %d preempted, %d completed;"
                        + " %d operations completed, %d submissions refused%n",
                report.simulatedSeconds(), report.seed(), report.heartbeats(), report.jobsStarted(),
                report.jobsPreempted(), report.jobsCompleted(), report.operationsCompleted(), report.submissionsRefused());
        StringBuilder utilization = new StringBuilder();
        report.utilization().forEach((resource, value) -> utilization.append(String.format(Locale.ROOT, " %s %.1f%%",
                resource, 100 * value)));
        out.println("utilization:" + utilization);
        out.printf(Locale.ROOT, "job wait: mean %.1f s, p95 %.1f s; wall clock: %.3f s deciding, %.3f s updating fair shares%n",
                report.meanJobWaitSeconds(), report.p95JobWaitSeconds(), report.decisionSeconds(),
                report.fairShareUpdateSeconds());
        out.println("invariant violations: " + report.invariantViolations());
        for (String violation : report.violations()) {
            out.println("  " + violation);
        }
    }
}
