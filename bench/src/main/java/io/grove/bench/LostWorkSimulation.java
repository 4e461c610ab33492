package io.grove.bench;

import io.grove.core.operation.OperationType;
import io.grove.core.pool.PreemptionSettings;
import io.grove.core.pool.VictimOrder;
import io.grove.core.resource.Resources;
import io.grove.core.sim.SimReport;
import io.grove.core.sim.Simulator;
import io.grove.core.sim.Workload;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Work lost to preemption on the GPU cluster of {@link GangSimulation} (512 nodes of 8 GPUs in racks
 * and blocks), with shares that change: {@code batch} fills the cluster with one-GPU jobs of an hour
 * that checkpoint every 10 minutes, {@code research} adds some, and {@code prod} (weight 2) comes in
 * three waves of one-GPU and 8-GPU jobs that take their share back by preemption. The same workload
 * and seed run with each victim order ({@code least_lost_work}, {@code newest_first}); reported:
 * the GPU-hours preempted jobs lost (since their last checkpoint or start), the preemptions, the
 * fairness error (mean |usage − fair share| of the three pools over the samples), GPU utilisation.
 *
 * <pre>java -cp bench/target/benchmarks.jar io.grove.bench.LostWorkSimulation [seed] [hours]</pre>
 */
public final class LostWorkSimulation {

    private LostWorkSimulation() {
    }

    public static void main(String[] args) {
        long seed = args.length > 0 ? Long.parseLong(args[0]) : 1;
        Duration run = Duration.ofMinutes(Math.round(60 * (args.length > 1 ? Double.parseDouble(args[1]) : 2)));
        double[] least = run(seed, run, VictimOrder.LEAST_LOST_WORK);
        double[] newest = run(seed, run, VictimOrder.NEWEST_FIRST);
        System.out.printf(Locale.ROOT, "lost GPU-hours: least_lost_work %.1f, newest_first %.1f: %.0f%% less%n", least[0],
                newest[0], newest[0] == 0 ? 0 : 100 * (1 - least[0] / newest[0]));
    }

    /** One run; returns lost GPU-hours, preemptions, fairness error, utilisation, and prints them. */
    static double[] run(long seed, Duration run, VictimOrder order) {
        SplittableRandom random = new SplittableRandom(seed);
        Resources gpu1 = new Resources(1, 4, 1, 32e9, 0);
        Resources gpu8 = new Resources(1, 32, 8, 256e9, 0);
        Duration checkpoint = Duration.ofMinutes(10);
        List<Workload.OperationGroup> operations = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            operations.add(new Workload.OperationGroup("batch-" + i, 1, Duration.ofSeconds(random.nextInt(20 * 60)), "batch",
                    null, "u" + i % 7, 200, gpu1, Duration.ofMinutes(50 + random.nextInt(20)), 1, OperationType.VANILLA,
                    null, checkpoint));
        }
        for (int i = 0; i < 20; i++) {
            operations.add(new Workload.OperationGroup("research-" + i, 1,
                    Duration.ofSeconds(20 * 60 + random.nextInt(40 * 60)), "research", null, "r" + i % 4, 100, gpu1,
                    Duration.ofMinutes(30 + random.nextInt(20)), 1, OperationType.VANILLA, null, checkpoint));
        }
        for (int wave = 1; wave <= 3; wave++) {
            for (int i = 0; i < 8; i++) {
                Duration at = Duration.ofMinutes(30L * wave).plusSeconds(random.nextInt(120));
                operations.add(new Workload.OperationGroup("prod" + wave + "-" + i, 1, at, "prod", null, "p" + i % 3,
                        i % 2 == 0 ? 150 : 20, i % 2 == 0 ? gpu1 : gpu8, Duration.ofMinutes(15 + random.nextInt(10)), 1,
                        OperationType.VANILLA, null, null));
            }
        }
        Simulator simulator = GangSimulation.gpuCluster(operations, PreemptionSettings.DEFAULT.withVictimOrder(order), seed);
        SimReport report = simulator.run(run);
        double error = 0;
        int samples = 0;
        for (SimReport.Sample sample : report.samples()) {
            if (sample.pool().equals("batch") || sample.pool().equals("prod") || sample.pool().equals("research")) {
                error += Math.abs(sample.usageShare() - sample.fairShare());
                samples++;
            }
        }
        double lostHours = report.lostWork().get("gpu") / 3600;
        double fairness = samples == 0 ? 0 : error / samples;
        System.out.printf(Locale.ROOT, "%-15s %d h simulated (%.1f s wall): lost %.1f GPU-hours to %d preemptions; "
                        + "fairness error %.4f; GPU utilisation %.1f%%; invariant violations %d%n",
                order.name().toLowerCase(Locale.ROOT), run.toHours(), report.decisionSeconds() + report.fairShareUpdateSeconds(),
                lostHours, report.jobsPreempted(), fairness, 100 * report.utilization().get("gpu"), report.invariantViolations());
        return new double[] {lostHours, report.jobsPreempted(), fairness, report.utilization().get("gpu")};
    }
}
