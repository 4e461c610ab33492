package io.grove.bench;

import io.grove.core.schedule.Decision;
import io.grove.core.schedule.Heartbeat;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * How a full node's heartbeat and a heartbeat that ends two jobs and starts two grow with the
 * operations per pool, the pools and the nodes ({@link FullCluster} shapes, one thread, medians
 * and means of the second half of the calls). FairScheduler's cost grows about 4x from 50 to 250
 * applications per queue; these should stay flat.
 *
 * <pre>java -Xmx12g -cp bench/target/benchmarks.jar io.grove.bench.HeartbeatScaling [shape...]</pre>
 *
 * A shape is {@code nodes/operations/jobs-per-operation/leaves-per-side} (pools = 2 × leaves).
 */
public final class HeartbeatScaling {

    private HeartbeatScaling() {
    }

    public static void main(String[] args) {
        List<String> shapes = args.length > 0 ? List.of(args) : List.of(
                // operations per pool: 10, 100, 1,000 (4 pools)
                "1000/40/1000000/2", "1000/400/1000000/2", "1000/4000/1000000/2",
                // pools: 10, 100, 1,000, 10,000 (10 operations each)
                "1000/100/1000000/5", "1000/1000/1000000/50", "1000/10000/1000000/500", "1000/100000/1000000/5000",
                // nodes: 1,000, 10,000, 50,000
                "1000/200/1000000/2", "10000/200/1000000/2", "50000/200/1000000/2");
        System.out.println("| nodes | operations | pools | ops per pool | full node median | mean | end 2, start 2 median | mean | jobs running |");
        System.out.println("|---|---|---|---|---|---|---|---|---|");
        for (String shape : shapes) {
            String[] p = shape.split("/");
            int nodes = Integer.parseInt(p[0]);
            int operations = Integer.parseInt(p[1]);
            int leaves = Integer.parseInt(p[3]);
            FullCluster full = new FullCluster(nodes, operations, Integer.parseInt(p[2]), leaves);
            long[] fill = full.fill();
            List<List<Heartbeat.RunningJob>> running = new ArrayList<>();
            Heartbeat[] beats = new Heartbeat[nodes];
            for (int node = 0; node < nodes; node++) {
                running.add(full.running(node));
                beats[node] = FullCluster.heartbeat(node, running.get(node), List.of());
            }
            int calls = Math.max(200_000, 2 * nodes);
            long[] fullNode = new long[calls];
            for (int i = 0; i < calls; i++) {
                int node = i % nodes;
                long t0 = System.nanoTime();
                Decision decision = full.cluster.heartbeat(beats[node], FullCluster.NOW);
                fullNode[i] = System.nanoTime() - t0;
                if (!decision.starts().isEmpty()) {
                    throw new IllegalStateException(shape + ": a full node started jobs");
                }
            }
            long[] churn = new long[calls];
            for (int i = 0; i < calls; i++) {
                int node = i % nodes;
                List<Heartbeat.RunningJob> jobs = running.get(node);
                List<Heartbeat.FinishedJob> ended = new ArrayList<>(2);
                for (int k = 0; k < 2 && !jobs.isEmpty(); k++) {
                    ended.add(new Heartbeat.FinishedJob(jobs.remove(0).jobId(), Heartbeat.Outcome.COMPLETED, 0, null));
                }
                long t0 = System.nanoTime();
                Decision decision = full.cluster.heartbeat(FullCluster.heartbeat(node, jobs, ended), FullCluster.NOW);
                churn[i] = System.nanoTime() - t0;
                for (Decision.JobStart start : decision.starts()) {
                    jobs.add(new Heartbeat.RunningJob(start.jobId(), start.resources()));
                }
            }
            System.out.printf("| %,d | %,d | %,d | %,d | %s | %s | %s | %s | %,d |%n", nodes, operations, 2 * leaves,
                    operations / (2 * leaves), us(median(fullNode)), us(mean(fullNode)), us(median(churn)), us(mean(churn)),
                    fill[0]);
        }
    }

    private static long[] secondHalf(long[] values) {
        long[] half = Arrays.copyOfRange(values, values.length / 2, values.length);
        Arrays.sort(half);
        return half;
    }

    private static double median(long[] values) {
        long[] half = secondHalf(values);
        return half[half.length / 2];
    }

    private static double mean(long[] values) {
        return Arrays.stream(Arrays.copyOfRange(values, values.length / 2, values.length)).average().orElse(0);
    }

    private static String us(double nanos) {
        return String.format("%.2f µs", nanos / 1e3);
    }
}
