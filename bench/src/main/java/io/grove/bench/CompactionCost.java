package io.grove.bench;

import io.grove.core.cluster.Cluster;
import io.grove.core.resource.Resources;
import io.grove.server.state.Journal;
import io.grove.server.state.Revival;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/**
 * What a journal compaction costs on the load driver's cluster shape, alone on the machine: 10,000
 * nodes of 32 cpu filled with 1-cpu jobs of {@code operations} operations (320,000 running jobs;
 * {@link FullCluster}'s tree),
 * the snapshot captured as the scheduler thread does and written by the journal's thread (encoded,
 * written, fsynced and renamed into place). Prints the capture and the compaction, median and max, and
 * how much of the compaction is the journal thread's CPU (the rest is waiting for the disk).
 *
 * <pre>java -Xmx4g -cp bench/target/benchmarks.jar io.grove.bench.CompactionCost [operations] [rounds]</pre>
 */
public final class CompactionCost {

    private CompactionCost() {
    }

    public static void main(String[] args) throws Exception {
        int operations = args.length > 0 ? Integer.parseInt(args[0]) : 60;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        FullCluster full = new FullCluster(10_000, operations, 1_000_000, 50,
                List.of(new Resources(1, 1, 0, 1.0 * (1L << 30), 0)));
        full.fill();
        Cluster cluster = full.cluster;
        Instant now = FullCluster.NOW;
        Path dir = Files.createTempDirectory("grove-compaction-bench");
        long[] captures = new long[rounds];
        long[] compactions = new long[rounds];
        long[] cpu = new long[rounds];
        long[] allocated = new long[rounds];
        int records = 0;
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        try (Journal journal = Journal.open(dir)) {
            for (int round = -10; round < rounds; round++) {
                long started = System.nanoTime();
                Revival.Captured snapshot = Revival.capture(cluster, now);
                long captured = System.nanoTime();
                long cpuBefore = journalThreadCpu(threads);
                long allocatedBefore = journalThreadAllocated(threads);
                journal.compact(snapshot::events).join();
                long done = System.nanoTime();
                records = snapshot.size();
                if (round >= 0) {
                    captures[round] = captured - started;
                    compactions[round] = done - captured;
                    cpu[round] = journalThreadCpu(threads) - cpuBefore;
                    allocated[round] = journalThreadAllocated(threads) - allocatedBefore;
                }
            }
        }
        System.out.printf("%,d records: capture median %.1f ms (max %.1f), compaction median %.1f ms (max %.1f), "
                + "of it the journal thread's CPU median %.1f ms; it allocated %.1f MB; %d rounds after 10 warm-up rounds%n",
                records, Millis.median(captures), Millis.max(captures), Millis.median(compactions),
                Millis.max(compactions), Millis.median(cpu), Millis.median(allocated), rounds);
    }

    /** The CPU time of the journal's writer thread (the rest of a compaction is waiting for the disk). */
    private static long journalThreadCpu(ThreadMXBean threads) {
        return threads.getThreadCpuTime(journalThread().getId());
    }

    /** Bytes the journal's writer thread has allocated ({@link Millis#median} of bytes reads as MB). */
    private static long journalThreadAllocated(ThreadMXBean threads) {
        return ((com.sun.management.ThreadMXBean) threads).getThreadAllocatedBytes(journalThread().getId());
    }

    private static Thread journalThread() {
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (thread.getName().equals("grove-journal")) {
                return thread;
            }
        }
        throw new IllegalStateException("no grove-journal thread");
    }
}
