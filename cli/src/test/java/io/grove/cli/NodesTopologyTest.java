package io.grove.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.core.resource.Resources;
import io.grove.protocol.Handshake;
import io.grove.protocol.Message;
import io.grove.protocol.NodeClient;
import io.grove.protocol.Welcome;
import io.grove.server.Clock;
import io.grove.server.DaemonSettings;
import io.grove.server.SchedulerDaemon;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code grove nodes} shows each node's place in its tree's topology, and says which nodes lack a level. */
class NodesTopologyTest {

    @Test
    void theTopologyColumnAndTheNodesThatGiveNoRack(@TempDir Path dir) throws Exception {
        Path pools = Files.writeString(dir.resolve("pools.yaml"),
                "pool_trees:\n  physical:\n    topology_levels: [block, rack]\n    pools:\n      prod: {}\n");
        DaemonSettings settings = DaemonSettings.defaults(pools, dir.resolve("data")).withPorts(0, 0);
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        try (SchedulerDaemon daemon = SchedulerDaemon.start(settings, Clock.SYSTEM)) {
            for (Map.Entry<String, Map<String, String>> node : Map.of("n1", Map.of("block", "b1", "rack", "r07"),
                    "n2", Map.of("block", "b2")).entrySet()) {
                NodeClient client = NodeClient.connect(group, "127.0.0.1", daemon.nodePort(), Duration.ofSeconds(10),
                        Message.DEFAULT_MAX_FRAME_BYTES);
                Message welcome = client.request(new Handshake(Message.VERSION, node.getKey(), "", List.of(),
                        new Resources(4, 4, 0, 4L << 30, 0), List.of(), null, List.of(), null, null, node.getValue()),
                        Duration.ofSeconds(10)).get();
                assertTrue(welcome instanceof Welcome, String.valueOf(welcome));
            }
            GroveCliTest.Run nodes = GroveCliTest.grove("nodes", "--scheduler", "http://127.0.0.1:" + daemon.httpPort());
            assertEquals(0, nodes.exitCode(), nodes.err());
            List<String> lines = nodes.out().lines().toList();
            assertTrue(lines.get(0).endsWith("TOPOLOGY"), nodes.out());
            assertTrue(lines.get(1).startsWith("n1 ") && lines.get(1).endsWith("block=b1/rack=r07"), nodes.out());
            assertTrue(lines.get(2).startsWith("n2 ") && lines.get(2).endsWith("block=b2"), nodes.out());
            assertTrue(nodes.out().contains("node n2 gives no rack: it is in no domain of that level"), nodes.out());
            assertTrue(nodes.out().contains("tree physical, the most free in one domain: block b1 (4 cpu free on 1 node); "
                    + "rack r07 (4 cpu free on 1 node)"), nodes.out());
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
    }
}
