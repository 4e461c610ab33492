package io.grove.bench;

import io.grove.core.cluster.Cluster;
import io.grove.core.cluster.ComputedUpdate;
import io.grove.core.cluster.PreparedUpdate;

/**
 * How long one fair-share update holds the scheduler thread on a full cluster: the daemon takes
 * the update's input there ({@link Cluster#prepareFairShare}) and publishes its result there
 * ({@link Cluster#publishFairShare}); the computation between runs on another thread. Full clusters
 * of 10,000 nodes ({@link FullCluster}) with 60 to 10,000 operations.
 *
 * <pre>java -Xmx8g -cp bench/target/benchmarks.jar io.grove.bench.UpdateLoopCost [rounds]</pre>
 */
public final class UpdateLoopCost {

    private UpdateLoopCost() {
    }

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        for (int operations : new int[] {60, 1_000, 10_000}) {
            FullCluster full = new FullCluster(10_000, operations, 1_000_000 / Math.max(1, operations / 60), 50);
            full.fill();
            Cluster cluster = full.cluster;
            long[] prepare = new long[rounds];
            long[] compute = new long[rounds];
            long[] publish = new long[rounds];
            for (int round = -10; round < rounds; round++) {
                long t0 = System.nanoTime();
                PreparedUpdate prepared = cluster.prepareFairShare("t", FullCluster.NOW);
                long t1 = System.nanoTime();
                ComputedUpdate computed = Cluster.computeFairShare(prepared);
                long t2 = System.nanoTime();
                cluster.publishFairShare(computed);
                long t3 = System.nanoTime();
                if (round >= 0) {
                    prepare[round] = t1 - t0;
                    compute[round] = t2 - t1;
                    publish[round] = t3 - t2;
                }
            }
            System.out.printf("10,000 nodes, %,d operations, %,d running jobs: on the scheduler thread prepare median %.2f ms"
                    + " (max %.2f), publish median %.2f ms (max %.2f); computed elsewhere in %.1f ms%n", operations,
                    cluster.registry().runningJobCount(), Millis.median(prepare), Millis.max(prepare),
                    Millis.median(publish), Millis.max(publish), Millis.median(compute));
        }
    }
}
