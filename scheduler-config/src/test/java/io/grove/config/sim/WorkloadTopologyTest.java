package io.grove.config.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.config.LoadResult;
import io.grove.config.PoolsConfigLoader;
import io.grove.core.cluster.ClusterSettings;
import io.grove.core.cluster.TopologyIndex;
import io.grove.core.operation.Operation;
import io.grove.core.pool.PoolsConfig;
import io.grove.core.sim.Simulator;
import io.grove.core.sim.Workload;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A workload's node groups say where their nodes sit; the simulated scheduler keeps their domains. */
class WorkloadTopologyTest {

    static final String POOLS = "pool_trees:\n  physical:\n    topology_levels: [block, rack]\n    pools:\n      a: {}\n";

    @Test
    void eachGroupsNodesSitWhereTheGroupSays() {
        LoadResult<Workload> workload = WorkloadLoader.load("""
                nodes:
                  - {name: r1, count: 2, resources: {cpu: 8, gpu: 8}, topology: {block: b1, rack: r1}}
                  - {name: r2, count: 3, resources: {cpu: 8, gpu: 8}, topology: {block: b1, rack: r2}}
                  - {name: loose, count: 1, resources: {cpu: 8}}
                operations:
                  - {name: op, pool: a, jobs: 4, job: {cpu: 1, gpu: 1}, duration: 1h}
                """, "inline", Path.of("."));
        assertTrue(workload.ok(), workload.describe());
        PoolsConfig pools = PoolsConfigLoader.load(POOLS, "inline").value();
        Simulator simulator = new Simulator(pools, workload.value(), ClusterSettings.DEFAULT, 7, () -> 0L);
        simulator.run(Duration.ofMinutes(1));
        TopologyIndex topology = simulator.cluster().topology("physical");
        List<TopologyIndex.Domain> racks = topology.domains("rack");
        assertEquals(List.of("r1", "r2"), racks.stream().map(TopologyIndex.Domain::name).toList());
        assertEquals(List.of("r1-1", "r1-2"), racks.get(0).nodes());
        assertEquals(3, racks.get(1).nodes().size());
        double freeGpu = racks.get(0).free().gpu() + racks.get(1).free().gpu();
        assertEquals(40 - 4, freeGpu, 1e-9, "four 1-gpu jobs run somewhere in the two racks");
        assertEquals(5, topology.domains("block").get(0).nodes().size(), "the loose node is in no block");
    }

    @Test
    void aGangGroupKeepsEachGangInOneRackOfTheNodesItWasGiven() {
        LoadResult<Workload> workload = WorkloadLoader.load("""
                nodes:
                  - {name: r1, count: 2, resources: {cpu: 8, gpu: 8}, topology: {block: b1, rack: r1}}
                  - {name: r2, count: 2, resources: {cpu: 8, gpu: 8}, topology: {block: b1, rack: r2}}
                operations:
                  - {name: g, count: 2, pool: a, jobs: 2, job: {cpu: 1, gpu: 8}, duration: 1h, is_gang: true,
                     topology: {required: rack}}
                """, "inline", Path.of("."));
        assertTrue(workload.ok(), workload.describe());
        Simulator simulator = new Simulator(PoolsConfigLoader.load(POOLS, "inline").value(), workload.value(),
                ClusterSettings.DEFAULT, 7, () -> 0L);
        assertEquals(0, simulator.run(Duration.ofMinutes(1)).invariantViolations());
        for (String gang : List.of("g-1", "g-2")) {
            Operation operation = simulator.cluster().registry().operation(gang);
            assertEquals(2, operation.runningJobCount(), gang);
            assertEquals(1, operation.runningJobs().stream()
                    .map(job -> simulator.cluster().node(job.nodeId()).topology().domain("rack")).distinct().count(), gang);
        }
        LoadResult<Workload> notGang = WorkloadLoader.load("""
                nodes:
                  - {name: r1, count: 2, resources: {cpu: 8}}
                operations:
                  - {name: g, pool: a, jobs: 2, job: {cpu: 1}, duration: 1h, topology: {required: rack}}
                """, "inline", Path.of("."));
        assertTrue(!notGang.ok() && notGang.describe().contains("set is_gang: true"), notGang.describe());
    }

    @Test
    void aGroupWithABadTopologySaysWhere() {
        LoadResult<Workload> bad = WorkloadLoader.load("""
                nodes:
                  - {name: r1, count: 2, resources: {cpu: 8}, topology: {Rack: r1}}
                """, "inline", Path.of("."));
        assertTrue(!bad.ok() && bad.describe().contains("topology") && bad.describe().contains("is not a name"),
                bad.describe());
    }
}
