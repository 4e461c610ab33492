package io.grove.bench;

import io.grove.core.cluster.ClusterSettings;
import io.grove.core.cluster.TopologyIndex;
import io.grove.core.node.NodeTopology;
import io.grove.core.operation.GangTopology;
import io.grove.core.operation.Job;
import io.grove.core.operation.Operation;
import io.grove.core.operation.OperationType;
import io.grove.core.pool.PoolConfig;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.pool.PoolsConfig;
import io.grove.core.pool.PreemptionSettings;
import io.grove.core.resource.ResourceType;
import io.grove.core.resource.Resources;
import io.grove.core.sim.SimReport;
import io.grove.core.sim.Simulator;
import io.grove.core.sim.Workload;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * A GPU cluster in the simulator: 512 nodes of 8 GPUs in 4 blocks of 8 racks of 16 nodes, three
 * pools by weight, and a mix over two hours — one-GPU jobs, 8-GPU one-node jobs, and gangs of 2 to
 * 64 nodes (8 GPUs a rank) held to one rack (up to 16 nodes) or one block; {@code load} scales the
 * one-GPU and one-node jobs (1: they saturate the cluster; 0.4: they leave room to churn). The same
 * workload runs twice: with the gangs' topology, and with it ignored. Reported: GPU utilisation,
 * each gang size's wait from submission to its start (p50/p99, and how many never started), the
 * largest free rack and block over time, and gangs found running outside their required domain.
 *
 * <pre>java -cp bench/target/benchmarks.jar io.grove.bench.GangSimulation [seed] [load]</pre>
 */
public final class GangSimulation {

    static final int BLOCKS = 4;
    static final int RACKS = 8;
    static final int PER_RACK = 16;
    static final Duration RUN = Duration.ofHours(2);
    static final Duration STEP = Duration.ofMinutes(5);

    private GangSimulation() {
    }

    public static void main(String[] args) {
        long seed = args.length > 0 ? Long.parseLong(args[0]) : 1;
        double load = args.length > 1 ? Double.parseDouble(args[1]) : 1.0;
        System.out.println(run(seed, load, true));
        System.out.println(run(seed, load, false));
    }

    /** The cluster: 512 nodes of 8 GPUs, 4 blocks of 8 racks of 16. */
    static List<Workload.NodeGroup> gpuNodes() {
        List<Workload.NodeGroup> nodes = new ArrayList<>();
        for (int b = 0; b < BLOCKS; b++) {
            for (int r = 0; r < RACKS; r++) {
                nodes.add(new Workload.NodeGroup("b" + b + "r" + r, PER_RACK, new Resources(64, 64, 8, 1e12, 0), Set.of(),
                        NodeTopology.parse("block=b" + b + ",rack=b" + b + "r" + r)));
            }
        }
        return nodes;
    }

    /**
     * The simulator over {@link #gpuNodes} with three pools by weight (batch 1, prod 2, research 1)
     * in one tree {@code gpu} of levels block and rack, preempting as {@code preemption} says.
     */
    static Simulator gpuCluster(List<Workload.OperationGroup> operations, PreemptionSettings preemption, long seed) {
        return gpuCluster(operations, preemption, null, seed);
    }

    /** As above, every job of every pool held to {@code timeLimit} ({@code null}: none), its pools' default and maximum. */
    static Simulator gpuCluster(List<Workload.OperationGroup> operations, PreemptionSettings preemption, Duration timeLimit,
            long seed) {
        PoolTreeConfig tree = new PoolTreeConfig("gpu", null, ResourceType.GPU, null, null, true, null, null, preemption, null,
                List.of(PoolConfig.builder("batch").weight(1).timeLimits(timeLimit, timeLimit).build(),
                        PoolConfig.builder("prod").weight(2).timeLimits(timeLimit, timeLimit).build(),
                        PoolConfig.builder("research").weight(1).timeLimits(timeLimit, timeLimit).build()))
                .withTopologyLevels(List.of("block", "rack"));
        return new Simulator(new PoolsConfig("gpu", Map.of("gpu", tree)),
                new Workload(Duration.ofSeconds(1), Duration.ofSeconds(1), gpuNodes(), operations, List.of()),
                ClusterSettings.DEFAULT, seed, System::nanoTime).checkInvariantsEvery(500);
    }

    static final int[] SIZES = {2, 4, 8, 16, 32, 64};

    /**
     * The two hours' operations: one-GPU and one-node jobs scaled by {@code load}, and the gangs
     * ({@code topology}: held to a rack up to 16 nodes, else a block; otherwise anywhere).
     */
    static List<Workload.OperationGroup> workload(long seed, double load, boolean topology) {
        SplittableRandom random = new SplittableRandom(seed);
        List<Workload.OperationGroup> operations = new ArrayList<>();
        String[] pools = {"batch", "prod", "research"};
        int[] counts = {12, 10, 8, 6, 4, 2};
        for (int i = 0; i < 60; i++) {
            operations.add(new Workload.OperationGroup("gpu1-" + i, 1, Duration.ofMinutes(2L * i), pools[i % 3], null,
                    "u" + i % 5, (int) Math.ceil(400 * load), new Resources(1, 4, 1, 32e9, 0), Duration.ofMinutes(20), 1, OperationType.VANILLA));
        }
        for (int i = 0; i < 40; i++) {
            operations.add(new Workload.OperationGroup("node-" + i, 1, Duration.ofMinutes(3L * i), pools[(i + 1) % 3],
                    null, "u" + i % 5, (int) Math.ceil(30 * load), new Resources(1, 32, 8, 256e9, 0), Duration.ofMinutes(20), 1,
                    OperationType.VANILLA));
        }
        for (int s = 0; s < SIZES.length; s++) {
            for (int i = 0; i < counts[s]; i++) {
                GangTopology held = new GangTopology(SIZES[s] <= PER_RACK ? "rack" : "block", true);
                operations.add(new Workload.OperationGroup("gang" + SIZES[s] + "-" + i, 1,
                        Duration.ofSeconds(random.nextInt(90 * 60)), pools[random.nextInt(3)], null, "u" + i % 5,
                        SIZES[s], new Resources(1, 32, 8, 256e9, 0), Duration.ofMinutes(20), 1, OperationType.VANILLA,
                        topology ? held : GangTopology.NONE));
            }
        }
        return operations;
    }

    /** One run; {@code topology}: gangs keep their required level, else they go anywhere. */
    static String run(long seed, double load, boolean topology) {
        int[] sizes = SIZES;
        List<Workload.OperationGroup> operations = workload(seed, load, topology);
        Simulator simulator = gpuCluster(operations, null, seed);
        List<String> freeOverTime = new ArrayList<>();
        int outside = 0;
        SimReport report = null;
        for (Duration at = STEP; at.compareTo(RUN) <= 0; at = at.plus(STEP)) {
            report = simulator.run(at);
            TopologyIndex index = simulator.cluster().topology("gpu");
            freeOverTime.add(String.format(Locale.ROOT, "%d:%d/%d", at.toMinutes(),
                    (int) index.largestFree("rack", ResourceType.GPU).free().gpu(),
                    (int) index.largestFree("block", ResourceType.GPU).free().gpu()));
            outside += outsideTheirDomain(simulator);
        }
        Map<Integer, Integer> never = new TreeMap<>();
        Map<Integer, List<Double>> waits = waits(simulator, never);
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT,
                "%s, load %.1f: 512 nodes x 8 GPUs, 2 h simulated (%.1f s wall deciding and updating); GPU utilisation %.1f%%; invariant violations %d; "
                        + "gangs seen outside their required domain: %d%n", topology ? "topology kept" : "topology ignored", load,
                report.decisionSeconds() + report.fairShareUpdateSeconds(), 100 * report.utilization().get("gpu"),
                report.invariantViolations(), outside));
        for (int size : sizes) {
            List<Double> sorted = waits.getOrDefault(size, List.of());
            out.append(String.format(Locale.ROOT, "  gangs of %2d: wait p50 %s, p99 %s min; never started %d%n", size,
                    sorted.isEmpty() ? "-" : String.format(Locale.ROOT, "%.1f", sorted.get(sorted.size() / 2)),
                    sorted.isEmpty() ? "-" : String.format(Locale.ROOT, "%.1f",
                            sorted.get(Math.min(sorted.size() - 1, sorted.size() * 99 / 100))),
                    never.getOrDefault(size, 0)));
        }
        out.append("  largest free rack/block in GPUs every 5 min (minute:rack/block): ").append(String.join(" ", freeOverTime));
        return out.toString();
    }

    /**
     * Each gang size's waits from submission to start, in minutes, sorted; the gangs that never
     * started counted in {@code never}.
     */
    static Map<Integer, List<Double>> waits(Simulator simulator, Map<Integer, Integer> never) {
        Map<Integer, List<Double>> waits = new TreeMap<>();
        for (Operation operation : simulator.cluster().registry().operations()) {
            if (!operation.spec().gang()) {
                continue;
            }
            int size = operation.spec().jobCount();
            Instant first = null;
            for (Job job : operation.finishedJobs()) {
                first = first == null || job.startTime().isBefore(first) ? job.startTime() : first;
            }
            for (Job job : operation.runningJobs()) {
                first = first == null || job.startTime().isBefore(first) ? job.startTime() : first;
            }
            if (first == null) {
                never.merge(size, 1, Integer::sum);
            } else {
                waits.computeIfAbsent(size, k -> new ArrayList<>())
                        .add(Duration.between(operation.submitTime(), first).toMillis() / 60_000.0);
            }
        }
        waits.values().forEach(list -> list.sort(null));
        return waits;
    }

    /** Running gangs with a required level whose ranks sit in more than one domain of it. */
    private static int outsideTheirDomain(Simulator simulator) {
        int outside = 0;
        for (Operation operation : simulator.cluster().registry().operations()) {
            GangTopology held = operation.spec().topology();
            if (!held.required() || operation.runningJobCount() == 0) {
                continue;
            }
            Set<String> domains = new HashSet<>();
            for (Job job : operation.runningJobsView()) {
                domains.add(String.valueOf(simulator.cluster().node(job.nodeId()).topology().domain(held.level())));
            }
            outside += domains.size() > 1 ? 1 : 0;
        }
        return outside;
    }
}
