package io.grove.bench;

import io.grove.core.cluster.Cluster;
import io.grove.core.cluster.ClusterSettings;
import io.grove.core.operation.Job;
import io.grove.core.operation.OperationSpec;
import io.grove.core.operation.TaskSpec;
import io.grove.core.pool.IntegralGuaranteesSettings;
import io.grove.core.pool.OperationCountSettings;
import io.grove.core.pool.PoolConfig;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.pool.PoolsConfig;
import io.grove.core.resource.Resources;
import io.grove.core.schedule.Decision;
import io.grove.core.schedule.Heartbeat;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The workload of a full cluster, as measured against YARN's FairScheduler: {@code nodes} nodes of
 * 32 cpu and 128 GiB; a tree of two pools weighted 3:1, each with two leaf pools
 * ({@code leavesPerSide} × 2 leaves for the larger shapes); {@code operations} operations of
 * {@code jobsPerOperation} jobs spread over the leaves, half of 1 cpu / 4 GiB jobs, half of
 * 10 cpu / 1 GiB; jobs never end unless a benchmark ends them. {@link #fill} heartbeats every node
 * until nothing more starts.
 */
final class FullCluster {

    static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
    static final Resources NODE = new Resources(32, 32, 0, 128.0 * (1L << 30), 0);
    static final Resources SMALL = new Resources(1, 1, 0, 4.0 * (1L << 30), 0);
    static final Resources WIDE = new Resources(1, 10, 0, 1.0 * (1L << 30), 0);

    final Cluster cluster;
    final int nodes;
    final List<String> leaves = new ArrayList<>();

    FullCluster(int nodes, int operations, int jobsPerOperation, int leavesPerSide) {
        this(nodes, operations, jobsPerOperation, leavesPerSide, List.of(SMALL, WIDE));
    }

    /** As above, the operations' jobs taking the shapes of {@code jobs} in turn. */
    FullCluster(int nodes, int operations, int jobsPerOperation, int leavesPerSide, List<Resources> jobs) {
        this.nodes = nodes;
        List<PoolConfig> sides = new ArrayList<>();
        for (String side : List.of("heavy", "light")) {
            PoolConfig.Builder pool = PoolConfig.builder(side).weight(side.equals("heavy") ? 3.0 : 1.0);
            for (int i = 0; i < leavesPerSide; i++) {
                String leaf = side + "-" + i;
                leaves.add(leaf);
                pool.child(PoolConfig.builder(leaf));
            }
            sides.add(pool.build());
        }
        OperationCountSettings unlimited = new OperationCountSettings(10_000_000, 10_000_000, 10_000_000, 10_000_000, 1, true);
        PoolTreeConfig tree = new PoolTreeConfig("t", null, null, null, null, false, unlimited, null, null,
                IntegralGuaranteesSettings.DEFAULT, sides);
        cluster = new Cluster(new PoolsConfig("t", Map.of("t", tree)), ClusterSettings.DEFAULT);
        for (int i = 0; i < nodes; i++) {
            cluster.report(heartbeat(i, List.of(), List.of()), NOW);
        }
        for (int i = 0; i < operations; i++) {
            Resources job = jobs.get(i % jobs.size());
            cluster.submit("op-" + i, OperationSpec.builder().pool(leaves.get(i % leaves.size()))
                    .task(TaskSpec.of("main", jobsPerOperation, job, "true")).build(), "bench", NOW);
        }
        cluster.updateFairShare(NOW);
    }

    static String nodeId(int node) {
        return "n" + node;
    }

    static Heartbeat heartbeat(int node, List<Heartbeat.RunningJob> running, List<Heartbeat.FinishedJob> finished) {
        return new Heartbeat(nodeId(node), Set.of(), NODE, Resources.ZERO, running, finished);
    }

    /** What the node runs now, as its agent would report it. */
    List<Heartbeat.RunningJob> running(int node) {
        List<Heartbeat.RunningJob> running = new ArrayList<>();
        for (Job job : cluster.node(nodeId(node)).jobs()) {
            running.add(new Heartbeat.RunningJob(job.id(), job.resources()));
        }
        return running;
    }

    /**
     * Heartbeats every node in turn until a round starts nothing.
     *
     * @return {@code {jobs started, nanoseconds spent in Cluster.heartbeat}}
     */
    long[] fill() {
        long started = 0;
        long nanos = 0;
        while (true) {
            long round = 0;
            for (int node = 0; node < nodes; node++) {
                Heartbeat beat = heartbeat(node, running(node), List.of());
                long t0 = System.nanoTime();
                Decision decision = cluster.heartbeat(beat, NOW);
                nanos += System.nanoTime() - t0;
                round += decision.starts().size();
            }
            started += round;
            if (round == 0) {
                return new long[] {started, nanos};
            }
            cluster.updateFairShare(NOW);
        }
    }
}
