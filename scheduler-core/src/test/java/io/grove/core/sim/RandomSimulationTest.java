package io.grove.core.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.core.cluster.ClusterSettings;
import io.grove.core.operation.OperationType;
import io.grove.core.pool.EphemeralSubpoolConfig;
import io.grove.core.pool.PartialResources;
import io.grove.core.pool.PoolConfig;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.pool.PoolsConfig;
import io.grove.core.pool.StarvationSettings;
import io.grove.core.resource.ResourceType;
import io.grove.core.resource.Resources;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Seeded random simulations of small clusters with every invariant on. A failing seed is in the
 * test's name; add it to {@link #regressions} to keep it.
 */
class RandomSimulationTest {

    static java.util.stream.LongStream seeds() {
        return java.util.stream.LongStream.rangeClosed(1, 60);
    }

    /** Seeds that once failed, kept by name. */
    static java.util.stream.LongStream regressions() {
        return java.util.stream.LongStream.of();
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource({"seeds", "regressions"})
    void invariantsHoldOnRandomClusters(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        PoolsConfig pools = randomPools(random, false);
        Workload workload = randomWorkload(random, pools);
        Simulator simulator = new Simulator(pools, workload,
                new ClusterSettings(Duration.ofSeconds(20), Duration.ofSeconds(60)), seed, null);
        SimReport report = simulator.run(Duration.ofMinutes(10));
        assertEquals(0, report.invariantViolations(), "seed " + seed + ": " + report.violations());
        assertTrue(report.jobsStarted() > 0, "seed " + seed + " started nothing");
    }

    static PoolsConfig randomPools(SplittableRandom random, boolean tight) {
        List<PoolConfig> top = new ArrayList<>();
        int count = 2 + random.nextInt(4);
        double guaranteeLeft = 20;
        for (int i = 0; i < count; i++) {
            PoolConfig.Builder pool = PoolConfig.builder("p" + i).weight(1 + random.nextInt(4));
            int kind = random.nextInt(6);
            if (kind == 0 && guaranteeLeft >= 5) {
                pool.strongGuarantee(PartialResources.of(ResourceType.CPU, 5));
                guaranteeLeft -= 5;
            } else if (kind == 1) {
                pool.limits(PartialResources.of(ResourceType.CPU, 4 + random.nextInt(8)));
            } else if (kind == 2) {
                pool.fifo().lightweight();
            } else if (kind == 3) {
                pool.maxRunningOperationCount(1 + random.nextInt(2)).maxOperationCount(3 + random.nextInt(3));
            } else if (kind == 4) {
                pool.child(PoolConfig.builder("p" + i + "a").weight(2)).child(PoolConfig.builder("p" + i + "b"));
            } else {
                pool.createEphemeralSubpools(EphemeralSubpoolConfig.DEFAULT);
            }
            top.add(pool.build());
        }
        StarvationSettings starvation = new StarvationSettings(Duration.ofSeconds(10), Duration.ofSeconds(20), 0.8,
                random.nextBoolean(), true, 1.0);
        PoolTreeConfig tree = new PoolTreeConfig("t", null, null, null, null, false, null, starvation, null, null, top);
        return new PoolsConfig("t", Map.of("t", tree));
    }

    static Workload randomWorkload(SplittableRandom random, PoolsConfig pools) {
        List<Workload.NodeGroup> nodes = new ArrayList<>();
        int groups = 1 + random.nextInt(2);
        List<String> nodeIds = new ArrayList<>();
        for (int g = 0; g < groups; g++) {
            int count = 1 + random.nextInt(3);
            double cpu = 4 + random.nextInt(13);
            nodes.add(new Workload.NodeGroup("g" + g, count, new Resources(cpu, cpu, 0, cpu * 4e9, 0), Set.of()));
            for (int i = 1; i <= count; i++) {
                nodeIds.add("g" + g + "-" + i);
            }
        }
        List<String> poolNames = new ArrayList<>();
        collect(pools.trees().get("t").pools(), poolNames);
        List<Workload.OperationGroup> operations = new ArrayList<>();
        int opGroups = 2 + random.nextInt(5);
        for (int i = 0; i < opGroups; i++) {
            String pool = random.nextInt(5) == 0 ? null : poolNames.get(random.nextInt(poolNames.size()));
            double cpu = 1 + random.nextInt(3);
            Duration duration = random.nextInt(6) == 0 ? null : Duration.ofSeconds(5 + random.nextInt(60));
            operations.add(new Workload.OperationGroup("o" + i, 1 + random.nextInt(3),
                    Duration.ofSeconds(random.nextInt(200)), pool, null, "u" + random.nextInt(3),
                    1 + random.nextInt(30), new Resources(1, cpu, 0, cpu * 2e9, 0), duration, 1 + random.nextInt(3),
                    random.nextBoolean() ? OperationType.VANILLA : OperationType.MAP));
        }
        List<Workload.TimedEvent> events = new ArrayList<>();
        if (random.nextBoolean()) {
            String lost = nodeIds.get(random.nextInt(nodeIds.size()));
            int at = 60 + random.nextInt(200);
            events.add(new Workload.NodeLoss(Duration.ofSeconds(at), List.of(lost)));
            events.add(new Workload.NodeReturn(Duration.ofSeconds(at + 10 + random.nextInt(120)), List.of(lost)));
        }
        if (random.nextInt(3) == 0) {
            events.add(new Workload.ConfigChange(Duration.ofSeconds(300), randomPoolsKeeping(random, pools)));
        }
        return new Workload(Duration.ofSeconds(1 + random.nextInt(3)), Duration.ofMillis(500 + random.nextInt(2000)),
                nodes, operations, events);
    }

    /** A new config with the same pool names and other weights and limits. */
    private static PoolsConfig randomPoolsKeeping(SplittableRandom random, PoolsConfig pools) {
        PoolTreeConfig tree = pools.trees().get("t");
        List<PoolConfig> changed = new ArrayList<>();
        for (PoolConfig pool : tree.pools()) {
            changed.add(new PoolConfig(pool.name(), 1.0 + random.nextInt(5), pool.strongGuaranteeResources(),
                    pool.resourceLimits(), null, pool.mode(), pool.fifoSortParameters(), null, null,
                    pool.maxOperationCount(), pool.maxRunningOperationCount() == null ? null : pool.maxRunningOperationCount() + 1,
                    pool.enableLightweightOperations(), false, pool.createEphemeralSubpools(), pool.ephemeralSubpoolConfig(),
                    false, null, null, pool.children()));
        }
        return new PoolsConfig("t", Map.of("t", tree.withPools(changed)));
    }

    private static void collect(List<PoolConfig> pools, List<String> into) {
        for (PoolConfig pool : pools) {
            into.add(pool.name());
            collect(pool.children(), into);
        }
    }
}
