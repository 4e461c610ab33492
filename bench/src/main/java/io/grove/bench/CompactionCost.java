package io.grove.bench;

import io.grove.core.cluster.Cluster;
import io.grove.core.cluster.ClusterSettings;
import io.grove.core.operation.OperationSpec;
import io.grove.core.operation.TaskSpec;
import io.grove.core.pool.IntegralGuaranteesSettings;
import io.grove.core.pool.OperationCountSettings;
import io.grove.core.pool.PoolConfig;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.pool.PoolsConfig;
import io.grove.core.resource.Resources;
import io.grove.core.schedule.Heartbeat;
import io.grove.server.state.Journal;
import io.grove.server.state.Revival;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a journal compaction costs on the load driver's cluster shape, alone on the machine: 10,000
 * nodes of 32 cpu filled with 1-cpu jobs of {@code operations} operations (320,000 running jobs),
 * the snapshot captured as the scheduler thread does and written by the journal's thread (encoded,
 * written, fsynced and renamed into place). Prints the capture and the compaction, median and max.
 *
 * <pre>java -Xmx4g -cp bench/target/benchmarks.jar io.grove.bench.CompactionCost [operations] [rounds]</pre>
 */
public final class CompactionCost {

    private CompactionCost() {
    }

    public static void main(String[] args) throws Exception {
        int operations = args.length > 0 ? Integer.parseInt(args[0]) : 60;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        Cluster cluster = fullCluster(10_000, operations);
        Instant now = FullCluster.NOW;
        Path dir = Files.createTempDirectory("grove-compaction-bench");
        long[] captures = new long[rounds];
        long[] compactions = new long[rounds];
        int records = 0;
        try (Journal journal = Journal.open(dir)) {
            for (int round = -10; round < rounds; round++) {
                long started = System.nanoTime();
                Revival.Captured snapshot = Revival.capture(cluster, now);
                long captured = System.nanoTime();
                journal.compact(snapshot::events).join();
                long done = System.nanoTime();
                records = snapshot.size();
                if (round >= 0) {
                    captures[round] = captured - started;
                    compactions[round] = done - captured;
                }
            }
        }
        System.out.printf("%,d records: capture median %.1f ms (max %.1f), compaction median %.1f ms (max %.1f), "
                + "%d rounds after 10 warm-up rounds%n", records, median(captures), max(captures), median(compactions),
                max(compactions), rounds);
    }

    /** The driver's shape: a tree of ten groups of ten pools, operations of a million 1-cpu jobs, every node full. */
    static Cluster fullCluster(int nodes, int operations) {
        List<PoolConfig> top = new ArrayList<>();
        for (int group = 0; group < 10; group++) {
            PoolConfig.Builder parent = PoolConfig.builder("g" + group);
            for (int leaf = 0; leaf < 10; leaf++) {
                parent.child(PoolConfig.builder("g" + group + "-" + leaf));
            }
            top.add(parent.build());
        }
        OperationCountSettings unlimited = new OperationCountSettings(10_000_000, 10_000_000, 10_000_000, 10_000_000, 1,
                true);
        PoolTreeConfig tree = new PoolTreeConfig("t", null, null, null, null, false, unlimited, null, null,
                IntegralGuaranteesSettings.DEFAULT, top);
        Cluster cluster = new Cluster(new PoolsConfig("t", Map.of("t", tree)), ClusterSettings.DEFAULT);
        Instant now = FullCluster.NOW;
        for (int i = 0; i < nodes; i++) {
            cluster.report(heartbeat(i), now);
        }
        Resources job = new Resources(1, 1, 0, 1.0 * (1L << 30), 0);
        for (int i = 0; i < operations; i++) {
            int leaf = i % 100;
            cluster.submit("op-" + i, OperationSpec.builder().pool("g" + (leaf % 10) + "-" + (leaf / 10))
                    .task(TaskSpec.of("main", 1_000_000, job, "true")).build(), "bench", now);
        }
        cluster.updateFairShare(now);
        for (int i = 0; i < nodes; i++) {
            cluster.heartbeat(heartbeat(i), now);
        }
        return cluster;
    }

    private static Heartbeat heartbeat(int node) {
        return new Heartbeat("node-" + node, Set.of(), FullCluster.NODE, Resources.ZERO, List.of(), List.of());
    }

    private static double median(long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2] / 1e6;
    }

    private static double max(long[] nanos) {
        return Arrays.stream(nanos).max().orElse(0) / 1e6;
    }
}
