package io.grove.core.cluster;

import static io.grove.core.cluster.ClusterHarness.job;
import static io.grove.core.cluster.ClusterHarness.node;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.core.node.Node;
import io.grove.core.node.NodeTopology;
import io.grove.core.operation.OperationSpec;
import io.grove.core.pool.PoolConfig;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.pool.PoolsConfig;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Each level's domains of a tree's nodes and what is free on them, kept as nodes change. */
class TopologyIndexTest {

    private static PoolTreeConfig tree(String... levels) {
        return PoolTreeConfig.withPools("physical", List.of(PoolConfig.builder("a").build()))
                .withTopologyLevels(List.of(levels));
    }

    private static Map<String, Double> freeCpu(Cluster cluster, String level) {
        Map<String, Double> free = new TreeMap<>();
        for (TopologyIndex.Domain domain : cluster.topology("physical").domains(level)) {
            free.put(domain.name(), domain.free().cpu());
        }
        return free;
    }

    @Test
    void domainsCountTheirNodesAndWhatIsFreeAsJobsStartEndAndNodesLeave() {
        ClusterHarness h = ClusterHarness.of(tree("block", "rack"))
                .nodeAt("n1", node(4, 16), "block=b1,rack=r1")
                .nodeAt("n2", node(4, 16), "block=b1,rack=r2")
                .nodeAt("n3", node(4, 16), "block=b2,rack=r3")
                .nodeAt("n4", node(4, 16), "block=b2");
        Cluster cluster = h.cluster();
        assertEquals(Map.of("b1", 8.0, "b2", 8.0), freeCpu(cluster, "block"));
        assertEquals(Map.of("r1", 4.0, "r2", 4.0, "r3", 4.0), freeCpu(cluster, "rack"), "n4 gives no rack: in none");
        assertEquals(List.of("n1", "n2"), cluster.topology("physical").domains("block").get(0).nodes());

        h.submit("op", OperationSpec.builder().pool("a").jobs(3, job(1, 1)).build());
        h.jobsOf("op", Duration.ofSeconds(10));
        h.update();
        h.heartbeat("n1");
        assertEquals(1.0, freeCpu(cluster, "rack").get("r1"), 1e-9, "three jobs of 1 cpu started on n1");
        assertEquals(5.0, freeCpu(cluster, "block").get("b1"), 1e-9);

        h.advance(Duration.ofSeconds(10));
        h.heartbeat("n1");
        assertEquals(4.0, freeCpu(cluster, "rack").get("r1"), 1e-9, "their ends give it back");

        h.machine("n2").lose();
        h.advance(Duration.ofSeconds(61));
        h.heartbeat("n1");
        h.heartbeat("n3");
        h.heartbeat("n4");
        h.cluster().checkNodes(h.now());
        assertEquals(0.0, freeCpu(cluster, "rack").get("r2"), 1e-9, "an offline node keeps its place, not its room");
        h.advance(Duration.ofSeconds(600));
        h.heartbeat("n1");
        h.heartbeat("n3");
        h.heartbeat("n4");
        h.cluster().checkNodes(h.now());
        assertEquals(Map.of("r1", 4.0, "r3", 4.0), freeCpu(cluster, "rack"), "a forgotten node leaves its domain");
        assertEquals(3, cluster.topology("physical").nodes());
    }

    @Test
    void aNodeThatMovesAndAReloadThatChangesTheLevelsAreCountedAgain() {
        ClusterHarness h = ClusterHarness.of(tree("rack")).nodeAt("n1", node(2, 8), "rack=r1");
        h.machine("n1").withTopology(NodeTopology.parse("rack=r2"));
        h.heartbeat("n1");
        assertEquals(Map.of("r2", 2.0), freeCpu(h.cluster(), "rack"), "moved racks");
        h.cluster().reconfigure(new PoolsConfig("physical", Map.of("physical", tree("block", "rack"))));
        assertEquals(Map.of("r2", 2.0), freeCpu(h.cluster(), "rack"), "counted again after the reload");
        assertEquals(Map.of(), freeCpu(h.cluster(), "block"));
        h.cluster().reconfigure(new PoolsConfig("physical", Map.of("physical", tree())));
        assertEquals(List.of(), h.cluster().topology("physical").domains("rack"), "a tree without levels keeps nothing");
    }

    @Test
    void seededChangesLeaveTheSameCountsAsCountingFromScratch() {
        for (long seed = 1; seed <= 20; seed++) {
            SplittableRandom random = new SplittableRandom(seed);
            ClusterHarness h = ClusterHarness.of(tree("block", "rack"));
            for (int n = 0; n < 12; n++) {
                h.nodeAt("n" + n, node(4, 16), "block=b" + random.nextInt(2) + ",rack=r" + random.nextInt(4));
            }
            h.submit("op", OperationSpec.builder().pool("a").jobs(200, job(1, 1)).build());
            h.jobsOf("op", Duration.ofSeconds(3));
            h.update();
            for (int step = 0; step < 80; step++) {
                String id = "n" + random.nextInt(12);
                if (random.nextInt(4) == 0) {
                    h.machine(id).withTopology(NodeTopology.parse("block=b" + random.nextInt(2) + ",rack=r"
                            + random.nextInt(4)));
                }
                h.advance(Duration.ofSeconds(random.nextInt(2)));
                h.heartbeat(id);
            }
            Map<String, Double> expected = new TreeMap<>();
            for (Node node : h.cluster().nodes()) {
                String rack = node.topology().domain("rack");
                expected.merge(rack, node.limits().minusClamped(node.usage()).cpu(), Double::sum);
            }
            Map<String, Double> kept = freeCpu(h.cluster(), "rack");
            assertEquals(expected.keySet(), kept.keySet(), "seed " + seed);
            for (String rack : expected.keySet()) {
                assertEquals(expected.get(rack), kept.get(rack), 1e-9, "seed " + seed + ", rack " + rack);
            }
        }
    }

    @Test
    void aTopologyIsLevelEqualsDomainPairsAndABadOneSaysWhatIsWrong() {
        NodeTopology where = NodeTopology.parse("block=b1, rack=r07\n# a comment\nhost=h3");
        assertEquals("block=b1,rack=r07,host=h3", where.toString());
        assertEquals("block=b1/rack=r07", where.path(List.of("block", "rack")));
        assertEquals(List.of("pod"), where.missing(List.of("block", "pod")));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> NodeTopology.parse("block b1")).getMessage()
                .contains("is not level=domain"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> NodeTopology.parse("Block=b1")).getMessage()
                .contains("is not a name"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> NodeTopology.parse("rack=r1,rack=r2"))
                .getMessage().contains("given twice"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> NodeTopology.parse("rack=r 1")).getMessage()
                .contains("is not a name"));
    }
}
