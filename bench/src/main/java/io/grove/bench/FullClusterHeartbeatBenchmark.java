package io.grove.bench;

import io.grove.core.operation.Job;
import io.grove.core.schedule.Decision;
import io.grove.core.schedule.Heartbeat;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Heartbeats of a full cluster ({@link FullCluster}), where a real cluster spends its time:
 * {@code fullNode} — a node reports its running jobs and nothing fits (report, decide, apply);
 * {@code endTwoStartTwo} — a node reports two jobs ended and gets as many started. Nodes are taken
 * in turn, so caches see a cluster, not one node.
 *
 * <pre>java -jar bench/target/benchmarks.jar FullClusterHeartbeatBenchmark</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms4g", "-Xmx4g", "-XX:+AlwaysPreTouch"})
@Threads(1)
public class FullClusterHeartbeatBenchmark {

    /**
     * "nodes/operations/jobs per operation/leaves per side". The first is the shape measured
     * against FairScheduler ({@code fullNode}); {@code endTwoStartTwo} needs operations that never
     * run dry (each call starts two jobs), so it is read on the second.
     */
    @Param({"1000/200/400/2", "1000/200/1000000/2"})
    public String shape;

    private FullCluster full;
    private Heartbeat[] fullBeats;
    private List<List<Heartbeat.RunningJob>> running;
    private int next;

    @Setup(Level.Trial)
    public void setUp() {
        String[] p = shape.split("/");
        full = new FullCluster(Integer.parseInt(p[0]), Integer.parseInt(p[1]), Integer.parseInt(p[2]), Integer.parseInt(p[3]));
        full.fill();
        fullBeats = new Heartbeat[full.nodes];
        running = new ArrayList<>();
        for (int node = 0; node < full.nodes; node++) {
            running.add(full.running(node));
            fullBeats[node] = FullCluster.heartbeat(node, running.get(node), List.of());
        }
    }

    @Benchmark
    public Decision fullNode() {
        int node = next;
        next = (next + 1) % full.nodes;
        return full.cluster.heartbeat(fullBeats[node], FullCluster.NOW);
    }

    @Benchmark
    public Decision endTwoStartTwo() {
        int node = next;
        next = (next + 1) % full.nodes;
        List<Heartbeat.RunningJob> jobs = running.get(node);
        List<Heartbeat.FinishedJob> ended = new ArrayList<>(2);
        for (int i = 0; i < 2 && !jobs.isEmpty(); i++) {
            ended.add(new Heartbeat.FinishedJob(jobs.remove(0).jobId(), Heartbeat.Outcome.COMPLETED, 0, null));
        }
        Decision decision = full.cluster.heartbeat(FullCluster.heartbeat(node, jobs, ended), FullCluster.NOW);
        for (Decision.JobStart start : decision.starts()) {
            Job job = full.cluster.registry().runningJob(start.jobId());
            jobs.add(new Heartbeat.RunningJob(job.id(), job.resources()));
        }
        fullBeats[node] = FullCluster.heartbeat(node, jobs, List.of());
        return decision;
    }

    /**
     * Without JMH: the fill rate and both heartbeats.
     * {@code java -cp bench/target/benchmarks.jar io.grove.bench.FullClusterHeartbeatBenchmark [shape]}
     */
    public static void main(String[] args) {
        String shape = args.length > 0 ? args[0] : "1000/200/400/2";
        for (String which : List.of("fullNode", "endTwoStartTwo")) {
            FullClusterHeartbeatBenchmark bench = new FullClusterHeartbeatBenchmark();
            String[] p = shape.split("/");
            bench.shape = which.equals("fullNode") ? shape : p[0] + "/" + p[1] + "/1000000/" + p[3];
            String[] q = bench.shape.split("/");
            // the fill rate of a warm scheduler: 20 clusters filled, the last 10 measured (a first fill
            // also pays for compiling the code it runs)
            long filled = 0;
            long nanos = 0;
            for (int round = 0; round < 20; round++) {
                bench.full = new FullCluster(Integer.parseInt(q[0]), Integer.parseInt(q[1]), Integer.parseInt(q[2]),
                        Integer.parseInt(q[3]));
                long[] fill = bench.full.fill();
                if (round == 0) {
                    System.out.printf("%s: the first fill, cold: %,d jobs in %.1f ms of heartbeat time (%,.0f starts/s)%n",
                            bench.shape, fill[0], fill[1] / 1e6, fill[0] / (fill[1] / 1e9));
                }
                if (round >= 10) {
                    filled += fill[0];
                    nanos += fill[1];
                }
            }
            System.out.printf("%s: warm fills, %,d jobs each: %,.0f starts/s of heartbeat time%n", bench.shape,
                    filled / 10, filled / (nanos / 1e9));
            bench.fullBeats = new Heartbeat[bench.full.nodes];
            bench.running = new ArrayList<>();
            for (int node = 0; node < bench.full.nodes; node++) {
                bench.running.add(bench.full.running(node));
                bench.fullBeats[node] = FullCluster.heartbeat(node, bench.running.get(node), List.of());
            }
            long[] times = new long[400_000];
            int started = 0;
            for (int i = 0; i < times.length; i++) {
                long t0 = System.nanoTime();
                Decision d = which.equals("fullNode") ? bench.fullNode() : bench.endTwoStartTwo();
                times[i] = System.nanoTime() - t0;
                started += d.starts().size();
            }
            long[] measured = Arrays.copyOfRange(times, 200_000, times.length);
            Arrays.sort(measured);
            double mean = Arrays.stream(measured).average().orElse(0);
            System.out.printf("%s: median %.2f us, p99 %.2f us, mean %.2f us = %,.0f heartbeats/s; %,d jobs started%n",
                    which, measured[measured.length / 2] / 1e3, measured[measured.length * 99 / 100] / 1e3, mean / 1e3,
                    1e9 / mean, started);
        }
    }
}
