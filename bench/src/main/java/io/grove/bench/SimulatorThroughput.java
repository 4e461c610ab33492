package io.grove.bench;

import io.grove.core.cluster.ClusterSettings;
import io.grove.core.fairshare.FairShareInput;
import io.grove.core.fairshare.OperationDemand;
import io.grove.core.fairshare.TreeGenerator;
import io.grove.core.pool.OperationCountSettings;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.pool.PoolsConfig;
import io.grove.core.resource.Resources;
import io.grove.core.sim.SimReport;
import io.grove.core.sim.Simulator;
import io.grove.core.sim.Workload;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Load driver: job starts per wall-clock second through the simulator, with 10,000 nodes of 32 cpu
 * heartbeating every 5 s, 1,000 pools and 10,000 operations of 1-cpu jobs lasting 20 s, fair
 * shares updated every second. Invariants are checked every 10,000 events and at the end.
 *
 * <pre>java -Xmx8g -cp bench/target/benchmarks.jar io.grove.bench.SimulatorThroughput [nodes] [seconds]</pre>
 */
public final class SimulatorThroughput {

    private SimulatorThroughput() {
    }

    public static void main(String[] args) {
        int nodes = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 60;
        FairShareInput input = TreeGenerator.generate(7, new TreeGenerator.Shape(1_000, 10_000, 4, false));
        OperationCountSettings unlimited = new OperationCountSettings(10_000_000, 10_000_000, 10_000_000, 10_000_000, 1, true);
        PoolTreeConfig tree = new PoolTreeConfig("t", null, null, null, null, false, unlimited, null, null,
                input.tree().integralGuarantees(), input.tree().pools());
        List<Workload.OperationGroup> operations = new ArrayList<>();
        for (OperationDemand operation : input.operations()) {
            operations.add(new Workload.OperationGroup(operation.id(), 1, Duration.ZERO, operation.pool(), null, "bench",
                    100, new Resources(1, 1, 0, 2e9, 0), Duration.ofSeconds(20), operation.weight(), null));
        }
        Workload workload = new Workload(Duration.ofSeconds(5), Duration.ofSeconds(1),
                List.of(new Workload.NodeGroup("n", nodes, new Resources(32, 32, 0, 128e9, 0), Set.of())), operations,
                List.of());
        Simulator simulator = new Simulator(new PoolsConfig("t", Map.of("t", tree)), workload, ClusterSettings.DEFAULT,
                1, System::nanoTime).checkInvariantsEvery(10_000);
        long start = System.nanoTime();
        SimReport report = simulator.run(Duration.ofSeconds(seconds));
        double wall = (System.nanoTime() - start) / 1e9;
        System.out.printf("%d nodes, %d simulated s: %d heartbeats, %d jobs started in %.1f s wall "
                        + "(%.0f starts/s; %.1f s deciding, %.1f s in fair-share updates); violations %d%n",
                nodes, seconds, report.heartbeats(), report.jobsStarted(), wall, report.jobsStarted() / wall,
                report.decisionSeconds(), report.fairShareUpdateSeconds(), report.invariantViolations());
    }
}
