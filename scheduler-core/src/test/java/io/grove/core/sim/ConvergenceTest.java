package io.grove.core.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.core.cluster.ClusterSettings;
import io.grove.core.fairshare.ElementShares;
import io.grove.core.pool.IntegralGuaranteeType;
import io.grove.core.pool.IntegralGuaranteesConfig;
import io.grove.core.pool.PartialResources;
import io.grove.core.pool.PoolConfig;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.pool.PoolsConfig;
import io.grove.core.resource.ResourceType;
import io.grove.core.resource.Resources;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Fair shares reached in practice: weights, burst and relaxed guarantees, through the simulator. */
class ConvergenceTest {

    private static PoolsConfig tree(PoolConfig... pools) {
        return new PoolsConfig("t", Map.of("t", PoolTreeConfig.withPools("t", List.of(pools))));
    }

    private static Workload.OperationGroup hungry(String name, String pool, Duration at, Duration duration) {
        return new Workload.OperationGroup(name, 1, at, pool, null, "u", 200_000, new Resources(1, 1, 0, 1e9, 0),
                duration, 1.0, null);
    }

    private static Workload.NodeGroup nodes(int count, double cpu) {
        return new Workload.NodeGroup("n", count, new Resources(cpu, cpu, 0, cpu * 4e9, 0), Set.of());
    }

    @Test
    void weightsOneTwoThreeConvergeToSixths() {
        PoolsConfig pools = tree(PoolConfig.builder("w1").weight(1).build(), PoolConfig.builder("w2").weight(2).build(),
                PoolConfig.builder("w3").weight(3).build());
        Duration jobs = Duration.ofSeconds(20);
        Workload workload = new Workload(Duration.ofSeconds(1), Duration.ofSeconds(1), List.of(nodes(4, 30)),
                List.of(hungry("a", "w1", Duration.ZERO, jobs), hungry("b", "w2", Duration.ZERO, jobs),
                        hungry("c", "w3", Duration.ZERO, jobs)), List.of());
        Simulator simulator = new Simulator(pools, workload, ClusterSettings.DEFAULT, 7, null);
        SimReport report = simulator.run(Duration.ofSeconds(5));
        Map<String, SimReport.PoolSummary> byPool = report.pools().get("t");
        double job = 1.0 / 120;
        assertEquals(1 / 6.0, byPool.get("w1").finalUsageShare(), job + 1e-9, "after a few heartbeat rounds");
        assertEquals(2 / 6.0, byPool.get("w2").finalUsageShare(), job + 1e-9);
        assertEquals(3 / 6.0, byPool.get("w3").finalUsageShare(), job + 1e-9);
        report = simulator.run(Duration.ofMinutes(5));
        assertEquals(0, report.invariantViolations(), report.violations().toString());
        byPool = report.pools().get("t");
        assertEquals(1 / 6.0, byPool.get("w1").finalUsageShare(), 2 * job);
        assertEquals(3 / 6.0, byPool.get("w3").finalUsageShare(), 2 * job);
        assertEquals(1.0, report.utilization().get("cpu"), 0.05);
    }

    @Test
    void aBurstPoolGetsItsBurstWhileItsVolumeLastsThenFallsBackToItsFlow() {
        PoolConfig burst = PoolConfig.builder("burst").weight(0.001).integral(new IntegralGuaranteesConfig(
                IntegralGuaranteeType.BURST, PartialResources.of(ResourceType.CPU, 10),
                PartialResources.of(ResourceType.CPU, 50), null, true, null)).build();
        PoolsConfig pools = tree(burst, PoolConfig.builder("other").build());
        Duration jobs = Duration.ofSeconds(10);
        Workload workload = new Workload(Duration.ofSeconds(1), Duration.ofSeconds(1), List.of(nodes(4, 25)),
                List.of(hungry("bulk", "other", Duration.ZERO, jobs), hungry("spike", "burst", Duration.ofMinutes(10), jobs)),
                List.of());
        Simulator simulator = new Simulator(pools, workload, ClusterSettings.DEFAULT, 3, null);
        simulator.run(Duration.ofMinutes(10).plusSeconds(40));
        ElementShares during = simulator.cluster().fairShare("t").element("burst");
        assertEquals(0.5, during.fairShare().integralGuarantee().cpu(), 1e-6, "the burst guarantee while volume lasts");
        assertTrue(simulator.cluster().fairShare("t").element("burst").usageShare().cpu() > 0.4);
        SimReport report = simulator.run(Duration.ofMinutes(40));
        ElementShares after = simulator.cluster().fairShare("t").element("burst");
        assertEquals(0.1, after.fairShare().integralGuarantee().cpu(), 0.01, "the flow once the volume is spent");
        assertEquals(0.1, report.pools().get("t").get("burst").finalUsageShare(), 0.03);
        assertEquals(0, report.invariantViolations(), report.violations().toString());
    }

    @Test
    void aRelaxedPoolAveragesItsFlowOverADay() {
        PoolConfig relaxed = PoolConfig.builder("relaxed").weight(0.001).integral(new IntegralGuaranteesConfig(
                IntegralGuaranteeType.RELAXED, PartialResources.of(ResourceType.CPU, 10), PartialResources.EMPTY,
                null, true, null)).build();
        PoolsConfig pools = tree(relaxed, PoolConfig.builder("other").build());
        Duration jobs = Duration.ofSeconds(60);
        Workload workload = new Workload(Duration.ofSeconds(5), Duration.ofSeconds(10), List.of(nodes(4, 25)),
                List.of(hungry("bulk", "other", Duration.ZERO, jobs), hungry("daily", "relaxed", Duration.ofHours(6), jobs)),
                List.of());
        Simulator simulator = new Simulator(pools, workload, ClusterSettings.DEFAULT, 11, null);
        SimReport report = simulator.run(Duration.ofDays(1));
        double mean = report.pools().get("t").get("relaxed").meanUsageShare();
        // Idle for 6 hours it saves 0.1 x 21,600 s of volume, then spends it at up to 3 x its flow.
        assertEquals(0.1, mean, 0.01, "mean usage share over the day");
        assertEquals(0, report.invariantViolations(), report.violations().toString());
    }
}
