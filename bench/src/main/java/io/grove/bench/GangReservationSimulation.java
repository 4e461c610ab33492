package io.grove.bench;

import io.grove.core.cluster.GangListener;
import io.grove.core.pool.GangReservations;
import io.grove.core.pool.PreemptionSettings;
import io.grove.core.schedule.GangReservation;
import io.grove.core.sim.SimReport;
import io.grove.core.sim.Simulator;
import io.grove.core.sim.Workload;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reservations with backfill in the simulator (docs/scheduling.md#reservations-with-backfill), on
 * the GPU cluster of {@link GangSimulation} with topology kept and every job held to a 30-minute
 * time limit (its pools' default and maximum; jobs run 20 minutes): the gangs' waits and the GPU
 * utilisation with reservations off and on, and each gang size's wait on an empty cluster (the
 * gangs alone). The target: a 64-node gang waits at most twice its wait on an empty cluster plus
 * the longest time limit, at a utilisation cost under 5%.
 *
 * <pre>java -cp bench/target/benchmarks.jar io.grove.bench.GangReservationSimulation [seed] [load]</pre>
 */
public final class GangReservationSimulation {

    static final Duration LIMIT = Duration.ofMinutes(30);

    private GangReservationSimulation() {
    }

    public static void main(String[] args) {
        long seed = args.length > 0 ? Long.parseLong(args[0]) : 1;
        double load = args.length > 1 ? Double.parseDouble(args[1]) : 1.0;
        List<Workload.OperationGroup> all = GangSimulation.workload(seed, load, true);
        List<Workload.OperationGroup> gangs = all.stream().filter(g -> g.gang() != null && g.gang().constrained()).toList();
        System.out.println(run("empty cluster (the gangs alone), reservations on", gangs, GangReservations.DEFAULT, seed));
        System.out.println(run(String.format(Locale.ROOT, "load %.1f, reservations off", load), all, GangReservations.OFF,
                seed));
        System.out.println(run(String.format(Locale.ROOT, "load %.1f, reservations on (%s, at most %d)", load,
                GangReservations.DEFAULT.timeout().toMinutes() + " min", GangReservations.DEFAULT.max()), all,
                GangReservations.DEFAULT, seed));
    }

    static String run(String label, List<Workload.OperationGroup> operations, GangReservations reservations, long seed) {
        Simulator simulator = GangSimulation.gpuCluster(operations,
                PreemptionSettings.DEFAULT.withGangReservations(reservations), LIMIT, seed);
        int[] made = new int[1];
        simulator.cluster().gangListener(new GangListener() {
            @Override
            public void reserved(GangReservation reservation) {
                made[0]++;
            }
        });
        SimReport report = simulator.run(GangSimulation.RUN);
        Map<Integer, Integer> never = new TreeMap<>();
        Map<Integer, List<Double>> waits = GangSimulation.waits(simulator, never);
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT,
                "%s: GPU utilisation %.1f%%; reservations made %d; invariant violations %d; %.1f s wall%n", label,
                100 * report.utilization().get("gpu"), made[0], report.invariantViolations(),
                report.decisionSeconds() + report.fairShareUpdateSeconds()));
        for (int size : GangSimulation.SIZES) {
            List<Double> sorted = waits.getOrDefault(size, new ArrayList<>());
            out.append(String.format(Locale.ROOT, "  gangs of %2d: wait p50 %s, max %s min; never started %d%n", size,
                    sorted.isEmpty() ? "-" : String.format(Locale.ROOT, "%.1f", sorted.get(sorted.size() / 2)),
                    sorted.isEmpty() ? "-" : String.format(Locale.ROOT, "%.1f", sorted.get(sorted.size() - 1)),
                    never.getOrDefault(size, 0)));
        }
        return out.toString();
    }
}
