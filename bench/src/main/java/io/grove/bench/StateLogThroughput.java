package io.grove.bench;

import io.grove.server.coord.ZkCoordination;
import io.grove.server.coord.ZkLayout;
import io.grove.server.state.Journal;
import io.grove.server.state.JournalEvent;
import io.grove.server.state.StateLog;
import io.grove.server.state.ZkLogReader;
import io.grove.server.state.ZkStateLog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.Semaphore;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.apache.curator.test.TestingServer;

/**
 * How fast acknowledged changes go through each state log: the local journal (fsync per group) and
 * ZooKeeper group commits (an in-process ZooKeeper with its own fsynced transaction log), with
 * {@code inFlight} changes waiting at once, as concurrent submits do. Prints changes per second
 * and the latency from queueing to acknowledgement.
 *
 * <pre>java -cp bench/target/benchmarks.jar io.grove.bench.StateLogThroughput [changes] [inFlight]</pre>
 */
public final class StateLogThroughput {

    private StateLogThroughput() {
    }

    public static void main(String[] args) throws Exception {
        int changes = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        int inFlight = args.length > 1 ? Integer.parseInt(args[1]) : 64;
        Path dir = Files.createTempDirectory("grove-statelog-bench");
        try (Journal journal = Journal.open(dir.resolve("journal"))) {
            run("journal (fsync)", journal, changes, inFlight);
        }
        try (TestingServer server = new TestingServer(-1, dir.resolve("zookeeper").toFile(), true)) {
            CuratorFramework zk = CuratorFrameworkFactory.newClient(server.getConnectString(), new RetryNTimes(3, 100));
            zk.start();
            ZkLayout layout = new ZkLayout("/grove");
            ZkCoordination coordination = ZkCoordination.over(zk, layout, Duration.ofSeconds(10));
            try (ZkStateLog log = ZkStateLog.open(coordination, layout, coordination.claimEpoch(),
                    new ZkLogReader(coordination, layout), () -> { })) {
                run("zookeeper (group commits)", log, changes, inFlight);
            } finally {
                zk.close();
            }
        }
    }

    private static void run(String name, StateLog log, int changes, int inFlight) throws Exception {
        exercise(log, Math.max(1_000, changes / 10), inFlight);
        long[] latencies = exercise(log, changes, inFlight);
        long total = latencies[latencies.length - 1];
        long[] sorted = Arrays.copyOf(latencies, latencies.length - 1);
        Arrays.sort(sorted);
        System.out.printf(Locale.ROOT, "%-28s %,9.0f changes/s   p50 %6.2f ms   p99 %6.2f ms   (%d changes, %d in flight)%n",
                name, changes / (total / 1e9), sorted[sorted.length / 2] / 1e6, sorted[sorted.length * 99 / 100] / 1e6,
                changes, inFlight);
    }

    /** Latencies of each change, then the total time in the last slot. */
    private static long[] exercise(StateLog log, int changes, int inFlight) throws InterruptedException {
        Semaphore window = new Semaphore(inFlight);
        long[] latencies = new long[changes + 1];
        long start = System.nanoTime();
        for (int i = 0; i < changes; i++) {
            window.acquire();
            int index = i;
            long queued = System.nanoTime();
            log.append(new JournalEvent.Aborted("op-" + i, i, "aborted by alice")).whenComplete((done, failure) -> {
                latencies[index] = System.nanoTime() - queued;
                window.release();
            });
        }
        window.acquire(inFlight);
        latencies[changes] = System.nanoTime() - start;
        return latencies;
    }
}
