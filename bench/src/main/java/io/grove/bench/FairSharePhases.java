package io.grove.bench;

import com.sun.management.ThreadMXBean;
import io.grove.core.fairshare.FairShareInput;
import io.grove.core.fairshare.FairShareUpdate;
import io.grove.core.fairshare.FairShareWorkspace;
import io.grove.core.fairshare.TreeGenerator;
import io.grove.core.fairshare.UpdatePhase;
import java.lang.management.ManagementFactory;
import java.util.Arrays;

/**
 * Where the time of one fair-share update goes: the median time of each of its phases over a
 * number of updates of the benchmark's tree ({@link FairShareUpdateBenchmark}), the first ten left
 * out, and what each phase allocates. The update reports its phases as they end; this program reads
 * the clock and the thread's allocation counter.
 *
 * <pre>java -Xms4g -Xmx4g -XX:+AlwaysPreTouch -cp bench/target/benchmarks.jar io.grove.bench.FairSharePhases [pools/operations] [runs]</pre>
 */
public final class FairSharePhases {

    private static final int WARM_UP = 10;

    private FairSharePhases() {
    }

    public static void main(String[] args) {
        String[] size = (args.length > 0 ? args[0] : "10000/100000").split("/");
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 35;
        if (runs <= WARM_UP) {
            throw new IllegalArgumentException("runs must be more than the " + WARM_UP + " warm-up runs, got " + runs);
        }
        FairShareInput input = TreeGenerator.generate(42, new TreeGenerator.Shape(Integer.parseInt(size[0]),
                Integer.parseInt(size[1]), 4, false));
        UpdatePhase[] phases = UpdatePhase.values();
        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        long[][] nanos = new long[phases.length + 1][runs - WARM_UP];
        long[] bytes = new long[phases.length + 1];
        // One workspace for the runs, as the daemon keeps one per tree.
        FairShareWorkspace workspace = new FairShareWorkspace();
        for (int run = 0; run < runs; run++) {
            long[] times = new long[phases.length];
            long[] allocated = new long[phases.length];
            long[] last = {System.nanoTime(), threads.getCurrentThreadAllocatedBytes()};
            long start = last[0];
            long startBytes = last[1];
            FairShareUpdate.run(input, workspace, phase -> {
                long now = System.nanoTime();
                long nowBytes = threads.getCurrentThreadAllocatedBytes();
                times[phase.ordinal()] = now - last[0];
                allocated[phase.ordinal()] = nowBytes - last[1];
                last[0] = now;
                last[1] = nowBytes;
            });
            if (run >= WARM_UP) {
                for (int p = 0; p < phases.length; p++) {
                    nanos[p][run - WARM_UP] = times[p];
                    bytes[p] = allocated[p];
                }
                nanos[phases.length][run - WARM_UP] = last[0] - start;
                bytes[phases.length] = last[1] - startBytes;
            }
        }
        StringBuilder out = new StringBuilder(args.length > 0 ? args[0] : "10000/100000").append(':');
        for (int p = 0; p <= phases.length; p++) {
            String name = p < phases.length ? phases[p].name().toLowerCase().replace('_', ' ') : "whole update";
            out.append(String.format(" %s %.1f ms (%.0f MB)%s", name, median(nanos[p]) / 1e6, bytes[p] / 1e6,
                    p < phases.length ? "," : ""));
        }
        System.out.println(out.append(" (medians of ").append(runs - WARM_UP).append(" updates after ")
                .append(WARM_UP).append(" warm-up updates; in brackets what each allocates)"));
    }

    private static double median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
