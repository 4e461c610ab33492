package io.grove.e2e;

import static io.grove.e2e.GroveCluster.awaitTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A scheduler and three agents (2 CPUs each), each its own container on one Docker network, built
 * from the distribution's image; faults made with Docker: SIGKILL, restart on the same volume,
 * network disconnection.
 */
@ExtendWith(DockerRequired.class)
class ClusterEndToEndTest {

    static final String POOLS = """
            default_tree: physical
            pool_trees:
              physical:
                # no preemption during these tests: every aborted attempt is the fault's doing
                fair_share_starvation_timeout: 600s
                fair_share_aggressive_starvation_timeout: 1200s
                pools:
                  light: {weight: 1}
                  heavy: {weight: 3}
                  other: {weight: 1}
            """;

    @Test
    void poolsShareTheClusterByTheirWeightsAndEverythingCompletes(@TempDir Path dir) throws Exception {
        try (GroveCluster cluster = new GroveCluster(dir, POOLS, 3)) {
            String light = cluster.submit("light", 24, 1, 3);
            String heavy = cluster.submit("heavy", 40, 1, 3);
            // 6 CPUs shared 1:3 while both pools want more: 1.5 and 4.5, within one job (1 CPU = 1/6)
            List<String> samples = new ArrayList<>();
            awaitTrue("usage at fair share while contended", Duration.ofSeconds(60), () -> {
                JsonNode pools = cluster.get("/pool_trees/physical/pools");
                double lightUsage = 0;
                double heavyUsage = 0;
                double lightFair = 0;
                double heavyFair = 0;
                for (JsonNode pool : pools) {
                    String name = pool.get("name").asText();
                    double usage = pool.get("usage_share").get("cpu").asDouble();
                    double fair = pool.get("fair_share").get("total").get("cpu").asDouble();
                    if (name.equals("light")) {
                        lightUsage = usage;
                        lightFair = fair;
                    } else if (name.equals("heavy")) {
                        heavyUsage = usage;
                        heavyFair = fair;
                    }
                }
                samples.add(String.format("light %.3f/%.3f heavy %.3f/%.3f", lightUsage, lightFair, heavyUsage, heavyFair));
                return Math.abs(lightFair - 0.25) < 0.01 && Math.abs(heavyFair - 0.75) < 0.01
                        && Math.abs(lightUsage - lightFair) <= 1.0 / 6 + 1e-9
                        && Math.abs(heavyUsage - heavyFair) <= 1.0 / 6 + 1e-9 && lightUsage + heavyUsage > 0.99;
            });
            awaitTrue("both operations to complete", Duration.ofSeconds(180),
                    () -> cluster.state(light).equals("completed") && cluster.state(heavy).equals("completed"));
            Invariants.completedOnce(cluster, light, 24);
            Invariants.completedOnce(cluster, heavy, 40);
            Invariants.neverTwiceAtOnce(cluster);
            System.out.println("fair share under contention: " + samples.get(samples.size() - 1));
        }
    }

    @Test
    void aKilledAgentsJobsAreRescheduledAndCountedOnce(@TempDir Path dir) throws Exception {
        try (GroveCluster cluster = new GroveCluster(dir, POOLS, 3)) {
            String op = cluster.submit("other", 18, 1, 8);
            awaitTrue("jobs on every agent", Duration.ofSeconds(60),
                    () -> cluster.operation(op).get("progress").get("running").asInt() == 6);
            long killedAt = System.nanoTime();
            cluster.kill(cluster.agents.get("agent-3"));
            awaitTrue("the operation to complete on the other agents", Duration.ofSeconds(240),
                    () -> cluster.state(op).equals("completed"));
            long aborted = cluster.attempts(op).stream().filter(a -> a.get("state").asText().equals("aborted")).count();
            assertEquals(2, aborted, "the two jobs of agent-3 were aborted and run again");
            assertTrue(cluster.attempts(op).stream().filter(a -> a.get("state").asText().equals("aborted"))
                    .allMatch(a -> a.path("reason").asText().equals("node_offline")), "aborted as node_offline");
            Invariants.completedOnce(cluster, op, 18);
            Invariants.neverTwiceAtOnce(cluster);
            System.out.printf("agent killed: rescheduled after %.1f s, completed once%n",
                    (System.nanoTime() - killedAt) / 1e9);
        }
    }

    @Test
    void aSchedulerKilledAndRestartedOnItsVolumeLosesNothing(@TempDir Path dir) throws Exception {
        try (GroveCluster cluster = new GroveCluster(dir, POOLS, 3)) {
            List<String> ops = new ArrayList<>();
            for (String pool : List.of("light", "heavy", "other")) {
                ops.add(cluster.submit(pool, 10, 1, 4));
            }
            awaitTrue("jobs running", Duration.ofSeconds(60),
                    () -> cluster.get("/nodes").get(0).get("jobs").asInt() > 0);
            String queued = cluster.submit("light", 3, 1, 1);   // acknowledged just before the crash
            ops.add(queued);
            cluster.kill(cluster.scheduler);
            cluster.startScheduler();
            awaitTrue("agents back", Duration.ofSeconds(60), () -> cluster.onlineNodes() == 3);
            for (String op : ops) {
                awaitTrue(op + " to complete after the restart", Duration.ofSeconds(240),
                        () -> cluster.state(op).equals("completed"));
            }
            for (String op : ops) {
                Invariants.completedOnce(cluster, op, op.equals(queued) ? 3 : 10);
            }
            Invariants.neverTwiceAtOnce(cluster);
        }
    }

    @Test
    void aShortPartitionChangesNothingALongOneRerunsTheJobs(@TempDir Path dir) throws Exception {
        try (GroveCluster cluster = new GroveCluster(dir, POOLS, 3)) {
            String shortOp = cluster.submit("other", 6, 1, 6);
            awaitTrue("all six running", Duration.ofSeconds(60),
                    () -> cluster.operation(shortOp).get("progress").get("running").asInt() == 6);
            cluster.disconnect("agent-1");
            // the partition lasts until the scheduler has missed agent-1 for 2 s: within the heartbeat timeout (4 s)
            awaitTrue("the scheduler to miss agent-1 for 2 s", Duration.ofSeconds(30),
                    () -> cluster.silence("agent-1").compareTo(Duration.ofSeconds(2)) >= 0);
            cluster.reconnect("agent-1");
            awaitTrue("the short-partition operation to complete", Duration.ofSeconds(120),
                    () -> cluster.state(shortOp).equals("completed"));
            assertEquals(0, cluster.operation(shortOp).get("progress").get("aborted").asInt(),
                    "a partition shorter than the heartbeat timeout aborts nothing");
            Invariants.completedOnce(cluster, shortOp, 6);

            String longOp = cluster.submit("other", 6, 1, 30);
            awaitTrue("all six running", Duration.ofSeconds(60),
                    () -> cluster.operation(longOp).get("progress").get("running").asInt() == 6);
            cluster.disconnect("agent-1");
            awaitTrue("agent-1's jobs lost after the registration timeout", Duration.ofSeconds(60),
                    () -> cluster.operation(longOp).get("progress").get("aborted").asInt() == 2);
            cluster.reconnect("agent-1");
            awaitTrue("agent-1 back", Duration.ofSeconds(60), () -> cluster.onlineNodes() == 3);
            awaitTrue("the long-partition operation to complete", Duration.ofSeconds(180),
                    () -> cluster.state(longOp).equals("completed"));
            Invariants.completedOnce(cluster, longOp, 6);
            long lost = cluster.attempts(longOp).stream().filter(a -> a.get("state").asText().equals("aborted")
                    && a.path("reason").asText().equals("node_offline")).count();
            assertEquals(2, lost, "the partitioned node's two jobs were declared lost and run again elsewhere");
        }
    }

    @Test
    void reloadsUnderLoadApplyAValidFileAndRefuseAnInvalidOne(@TempDir Path dir) throws Exception {
        try (GroveCluster cluster = new GroveCluster(dir, POOLS, 3)) {
            String op = cluster.submit("light", 20, 1, 2);
            String other = cluster.submit("heavy", 20, 1, 2);
            Files.writeString(cluster.config.resolve("pools.yaml"), POOLS.replace("light: {weight: 1}",
                    "light: {weight: 3}"));
            JsonNode applied = cluster.post("/config/reload", "");
            assertTrue(applied.get("applied").asBoolean(), applied.toString());
            awaitTrue("the new weight in force", Duration.ofSeconds(30), () -> {
                for (JsonNode pool : cluster.get("/pool_trees/physical/pools")) {
                    if (pool.get("name").asText().equals("light")) {
                        return pool.get("weight").asDouble() == 3;
                    }
                }
                return false;
            });
            Files.writeString(cluster.config.resolve("pools.yaml"), "pool_trees: {physical: {pools: {light: {weight: -1}}}}");
            GroveCluster.ApiError refused = org.junit.jupiter.api.Assertions.assertThrows(GroveCluster.ApiError.class,
                    () -> cluster.post("/config/reload", ""));
            assertEquals(400, refused.status);
            assertTrue(cluster.get("/config").get("text").asText().contains("light: {weight: 3}"),
                    "the valid configuration stays");
            awaitTrue("both operations to complete", Duration.ofSeconds(180),
                    () -> cluster.state(op).equals("completed") && cluster.state(other).equals("completed"));
            Invariants.completedOnce(cluster, op, 20);
            Invariants.completedOnce(cluster, other, 20);
        }
    }
}
