package io.grove.bench;

import com.sun.management.ThreadMXBean;
import io.grove.core.fairshare.ElementShares;
import io.grove.core.fairshare.FairShareInput;
import io.grove.core.fairshare.FairShareResult;
import io.grove.core.fairshare.FairShareUpdate;
import io.grove.core.fairshare.FairShareWorkspace;
import io.grove.core.fairshare.OperationDemand;
import io.grove.core.fairshare.TreeGenerator;
import io.grove.core.resource.Resources;
import java.lang.management.ManagementFactory;
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
 * One full fair-share update of a generated tree of depth 4 with mixed guarantees (strong,
 * burst, relaxed, limits, FIFO leaves), on one thread. Sample mode, so the median and the tail
 * are reported.
 *
 * <pre>java -jar bench/target/benchmarks.jar FairShareUpdateBenchmark</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 4)
@Fork(value = 1, jvmArgsAppend = {"-Xms4g", "-Xmx4g", "-XX:+AlwaysPreTouch"})
@Threads(1)
public class FairShareUpdateBenchmark {

    /** "pools/operations". */
    @Param({"1000/10000", "10000/100000"})
    public String size;

    /**
     * How the operations' records lie in memory when the update reads them. {@code aged}: made
     * once for the trial and then moved about the heap by the run's collections, so that each
     * update finds them scattered. {@code fresh}: a new record with a new demand for every
     * operation before each update (not timed), as the daemon makes them from its live state just
     * before each update ({@code UpdateInputs}): in input order, next to each other.
     */
    @Param({"aged", "fresh"})
    public String records;

    /**
     * Where the update works. {@code kept}: in one {@link FairShareWorkspace} for the trial, as the
     * daemon keeps one per tree, so that its arrays are made once. {@code none}: every update
     * makes its own.
     */
    @Param({"kept", "none"})
    public String workspace;

    private FairShareInput generated;
    private FairShareInput input;
    private FairShareWorkspace kept;

    @Setup(Level.Trial)
    public void setUp() {
        String[] parts = size.split("/");
        generated = TreeGenerator.generate(42, new TreeGenerator.Shape(Integer.parseInt(parts[0]),
                Integer.parseInt(parts[1]), 4, false));
        input = generated;
        if (!workspace.equals("kept") && !workspace.equals("none")) {
            throw new IllegalArgumentException("workspace must be kept or none, got " + workspace);
        }
        kept = workspace.equals("kept") ? new FairShareWorkspace() : null;
    }

    /** A fresh copy of the operations' records before each update, where {@link #records} asks for it. */
    @Setup(Level.Invocation)
    public void renewRecords() {
        if (records.equals("fresh")) {
            input = fresh(generated);
        }
    }

    @Benchmark
    public FairShareResult update() {
        return kept == null ? FairShareUpdate.run(input) : FairShareUpdate.run(input, kept);
    }

    /** The same input with every operation's record and demand made anew, in input order. */
    static FairShareInput fresh(FairShareInput input) {
        List<OperationDemand> operations = new ArrayList<>(input.operations().size());
        for (OperationDemand o : input.operations()) {
            operations.add(new OperationDemand(o.id(), o.pool(), o.weight(), o.demand().plus(Resources.ZERO),
                    o.usage(), o.resourceLimits(), o.bestAllocationShare(), o.gang(), o.startTime(),
                    o.pendingJobCount()));
        }
        return new FairShareInput(input.tree(), input.totalResources(), operations, input.integralState(),
                input.elapsedSeconds(), input.poolResourceCaps(), input.historicUsage());
    }

    /**
     * A quick look without JMH, printing the median of the runs after the first ten:
     * {@code java -cp bench/target/benchmarks.jar io.grove.bench.FairShareUpdateBenchmark [pools/operations] [runs] [aged|fresh] [kept|none]}.
     * It also times what the daemon does with a result right after the update
     * ({@code Cluster.computeFairShare}): making every element's shares.
     */
    public static void main(String[] args) {
        String[] sizes = args.length > 0 ? new String[] {args[0]} : new String[] {"1000/10000", "10000/100000"};
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 25;
        String records = args.length > 2 ? args[2] : "aged";
        if (!records.equals("aged") && !records.equals("fresh")) {
            throw new IllegalArgumentException("records must be aged or fresh, got " + records);
        }
        String workspace = args.length > 3 ? args[3] : "kept";
        for (String size : sizes) {
            FairShareUpdateBenchmark bench = new FairShareUpdateBenchmark();
            bench.size = size;
            bench.records = records;
            bench.workspace = workspace;
            bench.setUp();
            double[] times = new double[runs];
            double[] cpu = new double[runs];
            double[] shares = new double[runs];
            ThreadMXBean threads =
                    (ThreadMXBean) ManagementFactory.getThreadMXBean();
            long allocated = 0;
            for (int i = 0; i < runs; i++) {
                bench.renewRecords();
                long bytes = threads.getCurrentThreadAllocatedBytes();
                long cpuStart = threads.getCurrentThreadCpuTime();
                long start = System.nanoTime();
                FairShareResult result = bench.update();
                times[i] = (System.nanoTime() - start) / 1e6;
                cpu[i] = (threads.getCurrentThreadCpuTime() - cpuStart) / 1e6;
                allocated = threads.getCurrentThreadAllocatedBytes() - bytes;
                long sharesStart = System.nanoTime();
                List<ElementShares> all = new ArrayList<>(result.elements().values());
                shares[i] = (System.nanoTime() - sharesStart) / 1e6;
                if (all.size() != result.elements().size()) {
                    throw new IllegalStateException("elements lost");
                }
            }
            int warm = Math.min(10, runs - 1);
            double[] measured = Arrays.copyOfRange(times, warm, runs);
            Arrays.sort(measured);
            double[] measuredCpu = Arrays.copyOfRange(cpu, warm, runs);
            Arrays.sort(measuredCpu);
            double[] measuredShares = Arrays.copyOfRange(shares, warm, runs);
            Arrays.sort(measuredShares);
            System.out.printf("%s (%s records, workspace %s): median %.1f ms, min %.1f ms (the thread's CPU: median %.1f ms), %.0f MB allocated"
                    + " per update, over %d runs after %d warm-up runs; then every element's shares, as the daemon"
                    + " takes them: median %.1f ms%n", size, records, workspace, measured[measured.length / 2], measured[0],
                    measuredCpu[measuredCpu.length / 2], allocated / 1e6, measured.length, warm,
                    measuredShares[measuredShares.length / 2]);
        }
    }
}
