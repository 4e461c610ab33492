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
import io.grove.core.schedule.Heartbeat;
import java.lang.management.ManagementFactory;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The scheduler's heap with 10,000 nodes, 100,000 operations in 10,000 pools and 500,000 running
 * jobs (nodes of 50 slots and 50 cpu, 1-cpu jobs), after a fair-share update and a full GC.
 *
 * <pre>java -Xmx8g -cp bench/target/benchmarks.jar io.grove.bench.MemoryFootprint [nodes operations pools]</pre>
 */
public final class MemoryFootprint {

    private MemoryFootprint() {
    }

    public static void main(String[] args) {
        int nodes = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        int operations = args.length > 1 ? Integer.parseInt(args[1]) : 100_000;
        int pools = args.length > 2 ? Integer.parseInt(args[2]) : 10_000;
        Instant now = Instant.parse("2026-01-01T00:00:00Z");
        long before = heapAfterGc();
        List<PoolConfig> top = new ArrayList<>();
        for (int group = 0; group < 100; group++) {
            PoolConfig.Builder parent = PoolConfig.builder("g" + group);
            for (int leaf = 0; leaf < pools / 100; leaf++) {
                parent.child(PoolConfig.builder("g" + group + "-" + leaf));
            }
            top.add(parent.build());
        }
        OperationCountSettings unlimited = new OperationCountSettings(10_000_000, 10_000_000, 10_000_000, 10_000_000, 1, true);
        PoolTreeConfig tree = new PoolTreeConfig("t", null, null, null, null, false, unlimited, null, null,
                IntegralGuaranteesSettings.DEFAULT, top);
        Cluster cluster = new Cluster(new PoolsConfig("t", Map.of("t", tree)), ClusterSettings.DEFAULT);
        Resources node = new Resources(50, 50, 0, 200.0 * (1L << 30), 0);
        for (int i = 0; i < nodes; i++) {
            cluster.report(new Heartbeat("n" + i, Set.of(), node, Resources.ZERO, List.of(), List.of()), now);
        }
        Resources job = new Resources(1, 1, 0, 2.0 * (1L << 30), 0);
        for (int i = 0; i < operations; i++) {
            int leaf = i % pools;
            cluster.submit("op-" + i, OperationSpec.builder().pool("g" + (leaf % 100) + "-" + (leaf / 100))
                    .task(TaskSpec.of("main", 10, job, "true")).build(), "bench", now);
        }
        cluster.updateFairShare(now);
        long running = 0;
        for (int round = 0; round < 3 && running < (long) nodes * 50; round++) {
            for (int i = 0; i < nodes; i++) {
                List<Heartbeat.RunningJob> jobs = new ArrayList<>();
                for (Job j : cluster.node("n" + i).jobs()) {
                    jobs.add(new Heartbeat.RunningJob(j.id(), j.resources()));
                }
                running += cluster.heartbeat(new Heartbeat("n" + i, Set.of(), node, Resources.ZERO, jobs, List.of()), now)
                        .starts().size();
            }
            cluster.updateFairShare(now);
        }
        long after = heapAfterGc();
        System.out.printf("%,d nodes, %,d operations in %,d pools, %,d running jobs: heap after GC %,d MiB (%,d MiB "
                + "before the cluster); %.0f bytes per running job all told%n", nodes, operations, pools, running,
                after >> 20, before >> 20, (double) (after - before) / running);
        if (cluster.nodes().size() != nodes) {
            throw new IllegalStateException("keep the cluster reachable until here");
        }
    }

    private static long heapAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
