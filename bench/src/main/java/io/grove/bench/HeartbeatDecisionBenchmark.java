package io.grove.bench;

import io.grove.core.cluster.Cluster;
import io.grove.core.cluster.ClusterSettings;
import io.grove.core.fairshare.FairShareInput;
import io.grove.core.fairshare.OperationDemand;
import io.grove.core.fairshare.TreeGenerator;
import io.grove.core.operation.OperationSpec;
import io.grove.core.pool.OperationCountSettings;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.pool.PoolsConfig;
import io.grove.core.resource.Resources;
import io.grove.core.schedule.Decision;
import io.grove.core.schedule.Heartbeat;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
 * One heartbeat decision for an empty 32-cpu node in the generated tree of 10,000 pools and
 * 100,000 operations (each with 1-cpu jobs pending): 32 starts by the descent (docs/scheduling.md#the-heartbeat-decision)
 * {@code Cluster.decide} leaves the state as it was (its precommits are undone), so every call
 * makes the same 32 starts; the figure includes that undo.
 *
 * <pre>java -jar bench/target/benchmarks.jar HeartbeatDecisionBenchmark</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 4)
@Fork(value = 1, jvmArgsAppend = {"-Xms4g", "-Xmx4g", "-XX:+AlwaysPreTouch"})
@Threads(1)
public class HeartbeatDecisionBenchmark {

    static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
    static final Resources NODE = new Resources(32, 32, 0, 128e9, 0);

    /** "pools/operations". */
    @Param({"10000/100000"})
    public String size;

    private Cluster cluster;
    private Heartbeat heartbeat;

    @Setup(Level.Trial)
    public void setUp() {
        String[] parts = size.split("/");
        FairShareInput input = TreeGenerator.generate(42, new TreeGenerator.Shape(Integer.parseInt(parts[0]),
                Integer.parseInt(parts[1]), 4, false));
        cluster = clusterFor(input);
        heartbeat = new Heartbeat("empty", Set.of(), NODE, Resources.ZERO, List.of(), List.of());
        cluster.report(heartbeat, NOW);
        cluster.updateFairShare(NOW);
        Decision check = decide();
        if (check.starts().size() != 32) {
            throw new IllegalStateException("expected 32 starts, got " + check.starts().size() + ": " + check.idle());
        }
    }

    /** A cluster with the generated tree, nodes of 32 cpu adding up to its total, and every operation submitted. */
    static Cluster clusterFor(FairShareInput input) {
        PoolTreeConfig generated = input.tree();
        OperationCountSettings unlimited = new OperationCountSettings(10_000_000, 10_000_000, 10_000_000, 10_000_000, 1, true);
        PoolTreeConfig tree = new PoolTreeConfig("t", null, null, null, null, false, unlimited, null, null,
                generated.integralGuarantees(), generated.pools());
        Cluster cluster = new Cluster(new PoolsConfig("t", Map.of("t", tree)), ClusterSettings.DEFAULT);
        int nodes = (int) Math.ceil(input.totalResources().cpu() / 32);
        for (int i = 0; i < nodes; i++) {
            cluster.report(new Heartbeat("n" + i, Set.of(), NODE, Resources.ZERO, List.of(), List.of()), NOW);
        }
        for (OperationDemand operation : input.operations()) {
            cluster.submit(operation.id(), OperationSpec.builder().pool(operation.pool()).weight(operation.weight())
                    .jobs(20, new Resources(1, 1, 0, 2e9, 0)).build(), "bench", NOW);
        }
        return cluster;
    }

    @Benchmark
    public Decision decide() {
        return cluster.decide(heartbeat, NOW);
    }

    /** A quick look without JMH: {@code java -cp bench/target/benchmarks.jar io.grove.bench.HeartbeatDecisionBenchmark}. */
    public static void main(String[] args) {
        HeartbeatDecisionBenchmark bench = new HeartbeatDecisionBenchmark();
        bench.size = "10000/100000";
        long setup = System.nanoTime();
        bench.setUp();
        System.out.printf("setup %.1f s%n", (System.nanoTime() - setup) / 1e9);
        long[] times = new long[200_000];
        for (int i = 0; i < times.length; i++) {
            long start = System.nanoTime();
            bench.decide();
            times[i] = System.nanoTime() - start;
        }
        Arrays.sort(times, 100_000, times.length);
        System.out.printf("median %.1f us, p99 %.1f us; the last decision started %d jobs%n", times[150_000] / 1e3,
                times[100_000 + 99_000] / 1e3, bench.decide().starts().size());
    }
}
