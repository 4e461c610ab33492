package io.grove.cli;


import io.grove.cli.client.ExitCodes;
import io.grove.server.ha.HaGroup;
import io.grove.server.ha.HaScheduler;
import io.grove.testing.Await;
import io.grove.testing.Ports;
import java.nio.file.Path;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The command line with a group of schedulers: it passes over one that is down and follows a standby to the leader. */
class HaCliTest {


    @Test
    void theCommandFollowsAStandbyToTheLeaderOfItsGroupOnly(@TempDir Path dir) throws Exception {
        try (TestingServer zookeeper = new TestingServer(true); HaGroup group = HaGroup.in(dir, CliClusterTest.POOLS)) {
            int down = Ports.free();
            try (HaScheduler a = group.join("a", zookeeper.getConnectString()).scheduler()) {
                Await.until("a to lead", a::isLeader);
                try (HaScheduler b = group.join("b", zookeeper.getConnectString()).scheduler()) {
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
