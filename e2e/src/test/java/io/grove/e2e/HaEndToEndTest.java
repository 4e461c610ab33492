package io.grove.e2e;

import static io.grove.e2e.GroveCluster.awaitTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A high-availability group on Docker: a ZooKeeper container (Debian's package), two schedulers
 * and three agents given both. The leader's container is killed mid-run: the standby leads, the
 * agents reconnect to it with their running jobs, every acknowledged operation completes, and no
 * job index runs twice at once.
 */
@ExtendWith(DockerRequired.class)
class HaEndToEndTest {

    @Test
    void theLeadersContainerIsKilledMidRunAndEverythingCompletesOnce(@TempDir Path dir) throws Exception {
        try (GroveCluster cluster = new GroveCluster(dir, ClusterEndToEndTest.POOLS, 3, true)) {
            String first = cluster.followLeader();
            List<String> ops = new ArrayList<>();
            for (String pool : List.of("light", "heavy", "other")) {
                ops.add(cluster.submit(pool, 8, 1, 4));
            }
            awaitTrue("jobs running", Duration.ofSeconds(60),
                    () -> cluster.operation(ops.get(0)).get("progress").get("running").asInt() > 0);
            String queued = cluster.submit("light", 3, 1, 1);   // acknowledged just before the crash
            ops.add(queued);

            long killed = System.nanoTime();
            cluster.kill(cluster.group.get(first));
            awaitTrue("the standby to lead", Duration.ofSeconds(60), () -> {
                String now = cluster.followLeader();
                return now != null && !now.equals(first);
            });
            double takeover = (System.nanoTime() - killed) / 1e9;
            assertNotEquals(first, cluster.followLeader());
            awaitTrue("agents on the new leader", Duration.ofSeconds(60), () -> cluster.onlineNodes() == 3);
            for (String op : ops) {
                awaitTrue(op + " to complete", Duration.ofSeconds(240), () -> cluster.state(op).equals("completed"));
            }
            for (String op : ops) {
                Invariants.completedOnce(cluster, op, op.equals(queued) ? 3 : 8);
            }
            Invariants.neverTwiceAtOnce(cluster);
            assertEquals(4, ops.size());
            System.out.printf("leader's container killed: the standby led after %.1f s; every operation completed once%n",
                    takeover);
        }
    }
}
