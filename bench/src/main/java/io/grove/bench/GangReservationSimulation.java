package io.grove.bench;

import io.grove.core.cluster.ClusterSettings;
import io.grove.core.cluster.GangListener;
import io.grove.core.pool.GangReservations;
import io.grove.core.pool.PoolConfig;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.pool.PoolsConfig;
import io.grove.core.pool.PreemptionSettings;
import io.grove.core.resource.ResourceType;
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
 * <p>Two placements of the gangs: in the three pools by weight with the small jobs (as
 * {@link GangSimulation}: a large gang's fair share there never covers it, so under the step
 * function it never starves), and in a FIFO pool {@code train} of weight 2 of their own, whose
 * first gang in line is owed all of its demand.
 *
 * <pre>java -cp bench/target/benchmarks.jar io.grove.bench.GangReservationSimulation [seed] [load] [timeout, e.g. 1m] [train|weights|both]</pre>
 */
public final class GangReservationSimulation {

    static final Duration LIMIT = Duration.ofMinutes(30);

    private GangReservationSimulation() {
    }

    /** {@link GangSimulation#gpuCluster} with a fourth pool, {@code train}: FIFO, weight 2, for the gangs. */
    static Simulator trainCluster(List<Workload.OperationGroup> operations, PreemptionSettings preemption, long seed) {
        List<PoolConfig> pools = new ArrayList<>();
        for (String pool : List.of("batch", "prod", "research", "train")) {
            PoolConfig.Builder builder = PoolConfig.builder(pool).weight(pool.equals("prod") || pool.equals("train") ? 2 : 1)
                    .timeLimits(LIMIT, LIMIT);
            pools.add((pool.equals("train") ? builder.fifo() : builder).build());
        }
        PoolTreeConfig tree = new PoolTreeConfig("gpu", null, ResourceType.GPU, null, null, true, null, null, preemption,
                null, pools).withTopologyLevels(List.of("block", "rack"));
        return new Simulator(new PoolsConfig("gpu", Map.of("gpu", tree)),
                new Workload(Duration.ofSeconds(1), Duration.ofSeconds(1), GangSimulation.gpuNodes(), operations, List.of()),
                ClusterSettings.DEFAULT, seed, System::nanoTime).checkInvariantsEvery(500);
    }

    public static void main(String[] args) {
        long seed = args.length > 0 ? Long.parseLong(args[0]) : 1;
        double load = args.length > 1 ? Double.parseDouble(args[1]) : 1.0;
        GangReservations reservations = args.length > 2
                ? new GangReservations(Duration.parse("PT" + args[2].toUpperCase(Locale.ROOT)), GangReservations.DEFAULT.max())
                : GangReservations.DEFAULT;
        String placements = args.length > 3 ? args[3] : "both";
        String on = String.format(Locale.ROOT, "reservations on (%s, at most %d)",
                reservations.timeout().toString().substring(2).toLowerCase(Locale.ROOT), reservations.max());
        for (boolean ownPool : new boolean[] {true, false}) {
            if (!placements.equals("both") && placements.equals("train") != ownPool) {
                continue;
            }
            List<Workload.OperationGroup> all = GangSimulation.workload(seed, load, true);
            if (ownPool) {
                all = all.stream().map(g -> isGang(g) ? inTrain(g) : g).toList();
            }
            String where = ownPool ? "gangs in FIFO pool train" : "gangs in the pools by weight";
            List<Workload.OperationGroup> gangs = all.stream().filter(GangReservationSimulation::isGang).toList();
            System.out.println(run(where + ", empty cluster (the gangs alone), " + on, gangs, reservations, seed, ownPool));
            System.out.println(run(String.format(Locale.ROOT, "%s, load %.1f, reservations off", where, load), all,
                    GangReservations.OFF, seed, ownPool));
            System.out.println(run(String.format(Locale.ROOT, "%s, load %.1f, %s", where, load, on), all, reservations,
                    seed, ownPool));
        }
    }

    private static boolean isGang(Workload.OperationGroup group) {
        return group.gang() != null && group.gang().constrained();
    }

    private static Workload.OperationGroup inTrain(Workload.OperationGroup g) {
        return new Workload.OperationGroup(g.name(), g.count(), g.at(), "train", g.tree(), g.user(), g.jobs(), g.job(),
                g.duration(), g.weight(), g.type(), g.gang(), g.checkpointEvery());
    }

    static String run(String label, List<Workload.OperationGroup> operations, GangReservations reservations, long seed,
            boolean trainPool) {
        PreemptionSettings preemption = PreemptionSettings.DEFAULT.withGangReservations(reservations);
        Simulator simulator = trainPool ? trainCluster(operations, preemption, seed)
                : GangSimulation.gpuCluster(operations, preemption, LIMIT, seed);
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
