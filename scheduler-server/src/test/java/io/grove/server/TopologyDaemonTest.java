package io.grove.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.grove.protocol.Welcome;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Nodes say where they sit in their handshakes; the node view shows each one's path in its tree's levels. */
class TopologyDaemonTest {

    static final String POOLS = """
            default_tree: physical
            pool_trees:
              physical:
                topology_levels: [block, rack]
                pools:
                  prod: {}
            """;

    @Test
    void theNodeViewShowsEachNodesPathAndTheLevelsItLacks(@TempDir Path dir) throws Exception {
        DaemonSettings settings = DaemonSettings.defaults(DaemonFixture.config(dir, POOLS), dir.resolve("data"))
                .withPorts(0, 0).withPeriods(Duration.ofSeconds(1), Duration.ofHours(1));
        AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-11-28T10:00:00Z"));
        try (SchedulerDaemon daemon = SchedulerDaemon.start(settings, now::get);
                DaemonFixture users = new DaemonFixture().at(daemon.httpPort(), daemon.nodePort());
                DaemonFixture.FakeNode placed = users.node("n1", 4);
                DaemonFixture.FakeNode half = users.node("n2", 4);
                DaemonFixture.FakeNode unplaced = users.node("n3", 4)) {
            placed.topology = Map.of("rack", "r07", "block", "b1");
            half.topology = Map.of("block", "b2");
            assertInstanceOf(Welcome.class, placed.handshake());
            assertInstanceOf(Welcome.class, half.handshake());
            assertInstanceOf(Welcome.class, unplaced.handshake());
            placed.heartbeat();

            Map<String, JsonNode> byId = new HashMap<>();
            users.get("/api/v1/nodes").body().forEach(node -> byId.put(node.get("id").asText(), node));
            assertEquals("block=b1/rack=r07", byId.get("n1").get("topology_path").asText(), "widest level first");
            assertEquals("r07", byId.get("n1").at("/topology/rack").asText());
            assertFalse(byId.get("n1").has("topology_missing"));
            assertEquals("block=b2", byId.get("n2").get("topology_path").asText());
            assertEquals("[\"rack\"]", byId.get("n2").get("topology_missing").toString());
            assertFalse(byId.get("n3").has("topology"));
            assertEquals("[\"block\",\"rack\"]", byId.get("n3").get("topology_missing").toString());

            JsonNode topology = users.get("/api/v1/pool_trees/physical/topology").body();
            assertEquals("cpu", topology.get("main_resource").asText());
            assertEquals("block", topology.at("/levels/0/level").asText());
            assertEquals("[\"n1\"]", topology.at("/levels/0/domains/0/nodes").toString());
            assertEquals("b2", topology.at("/levels/0/domains/1/name").asText());
            assertEquals("rack", topology.at("/levels/1/level").asText());
            assertEquals(1, topology.at("/levels/1/domains").size(), "n2 and n3 give no rack");
            assertEquals("r07", topology.at("/levels/1/largest_free").asText());
            assertEquals(4, topology.at("/levels/1/domains/0/free/cpu").asDouble(), 1e-9);
            assertEquals(404, users.get("/api/v1/pool_trees/nope/topology").status());

            now.set(now.get().plusSeconds(60)); // past the gauges' refresh period
            daemon.updateFairShare();
            String metrics = users.get("/metrics").body().asText();
            assertTrue(metrics.contains("grove_topology_largest_free{level=\"rack\",resource=\"cpu\",tree=\"physical\"} 4.0"),
                    metrics);
            assertTrue(metrics.contains("grove_topology_domains{level=\"block\",tree=\"physical\"} 2.0"), metrics);
        }
    }
}
