package io.grove.cli;


import io.grove.cli.client.ExitCodes;
import io.grove.server.Clock;
import io.grove.server.DaemonSettings;
import io.grove.server.ha.HaScheduler;
import io.grove.server.ha.HaSettings;
import io.grove.testing.Await;
import io.grove.testing.Ports;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The command line with a group of schedulers: it passes over one that is down and follows a standby to the leader. */
class HaCliTest {


    static HaScheduler scheduler(Path dir, String name, String zookeeper) throws Exception {
        return Ports.bind(2, ports -> scheduler(dir, name, zookeeper, ports[0], ports[1]));
    }

    private static HaScheduler scheduler(Path dir, String name, String zookeeper, int node, int api) throws Exception {
        DaemonSettings settings = DaemonSettings.defaults(dir.resolve("pools.yaml"), dir.resolve(name))
                .withPorts(node, api).withPeriods(Duration.ofMillis(200), Duration.ofMillis(100));
        return HaScheduler.start(settings, Clock.SYSTEM, new HaSettings(zookeeper, "/grove", Duration.ofSeconds(3),
                "http://127.0.0.1:" + api, "127.0.0.1:0"));
    }

    @Test
    void theCommandFollowsAStandbyToTheLeaderOfItsGroupOnly(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("pools.yaml"), CliClusterTest.POOLS);
        try (TestingServer zookeeper = new TestingServer(true)) {
            int down = Ports.free();
            try (HaScheduler a = scheduler(dir, "a", zookeeper.getConnectString())) {
                Await.until("a to lead", a::isLeader);
                try (HaScheduler b = scheduler(dir, "b", zookeeper.getConnectString())) {
                    String leader = "http://127.0.0.1:" + a.httpPort();
                    String standby = "http://127.0.0.1:" + b.httpPort();
                    GroveCliTest.Run submitted = GroveCliTest.grove("submit", "--scheduler",
                            "http://127.0.0.1:" + down + "," + standby + "," + leader, "--user", "alice", "--pool", "prod",
                            "--cpu", "0.25", "--", "true");
                    assertEquals(0, submitted.exitCode(), submitted.err());
                    assertTrue(submitted.out().strip().matches("op-\\d+"), submitted.out());

                    GroveCliTest.Run alone = GroveCliTest.grove("ops", "list", "--scheduler", standby, "--user", "alice");
                    assertEquals(ExitCodes.REFUSED, alone.exitCode(), alone.out());
                    assertTrue(alone.err().contains("this scheduler is a standby; the leader is at " + leader), alone.err());
                }
            }
        }
    }
}
