package io.grove.bench;

import com.sun.management.OperatingSystemMXBean;
import io.grove.http.Transport;
import io.grove.server.Clock;
import io.grove.server.DaemonSettings;
import io.grove.server.SchedulerDaemon;
import io.grove.server.net.NodeEndpoint;
import io.netty.channel.EventLoopGroup;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Load driver: N simulated nodes over real TCP against a real daemon, each heartbeating every
 * period (like an agent, it waits for the reply before the next one); every heartbeat completes
 * one of the node's jobs, so jobs keep starting. Heartbeats are version 2 deltas (what started and
 * ended), with the full list when the scheduler asks, as the agent sends them. Reports round
 * trips (p50/p99/max), heartbeats per second and missed heartbeats (no reply within the period).
 * Without ports it starts a daemon in this JVM (and reports the heap of both); with the node and
 * HTTP ports of a running {@code grove scheduler} it drives that one (each process then has its
 * own file-descriptor limit: 10,000 nodes need 10,000 sockets on each side). It submits 60
 * operations of a million 1-cpu jobs over three pools ({@code -Dgrove.load.operations=N} for more;
 * the tree's running-operation limits must allow them). Nodes speak protocol version 3 (the
 * scheduler may ask them to heartbeat now, and they do), or 2 with {@code -Dgrove.load.protocol=2}.
 * With {@code -Dgrove.load.submits=N} the cluster is idle instead: N operations of one job are
 * submitted one after another, and the time from each submission to a node being told to start
 * its job is reported.
 *
 * <pre>java -Xmx2g -cp bench/target/benchmarks.jar io.grove.bench.DaemonLoadDriver [nodes] [seconds] [period-ms] [node-port http-port]</pre>
 */
public final class DaemonLoadDriver {

    /** The protocol version the simulated nodes speak. */
    static final int PROTOCOL = Integer.getInteger("grove.load.protocol", 3);

    /** Single-job submissions on an idle cluster, timed to their start (0: the usual load instead). */
    static final int SUBMITS = Integer.getInteger("grove.load.submits", 0);

    /** When a node was told to start an operation's first job (nanoTime), by operation id, on the idle cluster. */
    static final Map<String, Long> STARTED = new ConcurrentHashMap<>();

    private DaemonLoadDriver() {
    }

    /** The pools the load is submitted to; {@code --print-pools} prints them for a daemon started apart. */
    static final String POOLS = """
            pool_trees:
              physical:
                max_operation_count_per_pool: 10000
                max_running_operation_count_per_pool: 10000
                pools:
                  batch: {weight: 1}
                  prod: {weight: 2}
                  adhoc: {weight: 1}
            """;

    /**
     * {@code -Dgrove.load.topology=BLOCKSxRACKS} (e.g. {@code 4x8}): the nodes say they sit in that
     * many blocks of that many racks each, in equal runs by index, and the tree knows both levels.
     */
    static final String TOPOLOGY = System.getProperty("grove.load.topology");

    /** The pools, with {@code topology_levels} when the nodes give a topology. */
    static String pools() {
        return TOPOLOGY == null ? POOLS
                : POOLS.replace("  physical:\n", "  physical:\n    topology_levels: [block, rack]\n");
    }

    /** Node {@code i} of {@code nodes}: its topology as a JSON object, or {@code null} without one. */
    static String topologyOf(int i, int nodes) {
        if (TOPOLOGY == null) {
            return null;
        }
        String[] shape = TOPOLOGY.split("x");
        int blocks = Integer.parseInt(shape[0]);
        int racks = Integer.parseInt(shape[1]);
        int rack = (int) ((long) i * blocks * racks / nodes);
        return "{\"block\":\"b" + rack / racks + "\",\"rack\":\"r" + rack + "\"}";
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 1 && args[0].equals("--print-pools")) {
            System.out.print(pools());
            return;
        }
        int nodes = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 60;
        long periodMs = args.length > 2 ? Long.parseLong(args[2]) : 1000;
        if (args.length >= 5) {
            int nodePort = Integer.parseInt(args[3]);
            if (SUBMITS == 0) {
                submit(Integer.parseInt(args[4]));
            }
            run(nodePort, Integer.parseInt(args[4]), nodes, seconds, periodMs);
            return;
        }
        Path dir = Files.createTempDirectory("grove-load");
        Path pools = dir.resolve("pools.yaml");
        Files.writeString(pools, pools());
        DaemonSettings settings = DaemonSettings.defaults(pools, dir.resolve("data")).withPorts(0, 0)
                .withPeriods(Duration.ofMillis(periodMs), Duration.ofMillis(200))
                // every simulated node connects from loopback
                .withNodeConnectionsPerAddress(NodeEndpoint.MAX_CONNECTIONS);
        try (SchedulerDaemon daemon = SchedulerDaemon.start(settings, Clock.SYSTEM)) {
            if (SUBMITS == 0) {
                submit(daemon.httpPort());
            }
            run(daemon.nodePort(), daemon.httpPort(), nodes, seconds, periodMs);
            System.gc();
            Runtime rt = Runtime.getRuntime();
            System.out.printf("heap after GC (daemon and driver together): %d MiB%n", (rt.totalMemory() - rt.freeMemory()) >> 20);
        }
    }

    /** Sixty operations of a million 1-cpu jobs each, spread over three pools. */
    private static void submit(int httpPort) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        int operations = Integer.getInteger("grove.load.operations", 60);
        for (int i = 0; i < operations; i++) {
            String pool = List.of("batch", "prod", "adhoc").get(i % 3);
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort
                    + "/api/v1/operations")).header("X-Grove-User", "load").POST(HttpRequest.BodyPublishers.ofString(
                    "pool: " + pool + "\ntasks: {main: {job_count: 1000000, command: 'true', cpu: 1, memory: 1Gi}}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 201) {
                throw new IllegalStateException("submit refused: " + response.body());
            }
        }
    }

    private static void run(int port, int httpPort, int nodes, int seconds, long periodMs) throws Exception {
        EventLoopGroup group = Transport.group(2); // epoll, or NIO with -Dgrove.nio=true
        List<LoadNode> all = new ArrayList<>();
        for (int i = 0; i < nodes; i++) {
            LoadNode node = new LoadNode("load-" + i, RawNode.connect(group, "127.0.0.1", port), LoadNode.CPU_LIMITS, true,
                    start -> {
                        if (SUBMITS > 0) {
                            STARTED.putIfAbsent(start[1], System.nanoTime());
                        }
                    });
            RawNode.Reply welcome = node.client.send(RawNode.handshake(node.id, node.limits, PROTOCOL,
                            topologyOf(i, nodes)))
                    .get(30, TimeUnit.SECONDS);
            if (!welcome.ok()) {
                throw new IllegalStateException("handshake refused: " + welcome.text());
            }
            all.add(node);
        }
        long cpuBefore = ownCpuNanos();
        long warmup = System.nanoTime() + TimeUnit.SECONDS.toNanos(Math.min(10, seconds / 4));
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        LoadStats stats = new LoadStats();
        for (LoadNode node : all) {
            long delay = ThreadLocalRandom.current().nextLong(periodMs);
            node.start(group, periodMs, warmup, end, stats, delay);
        }
        long[] toStart = SUBMITS > 0 ? timedSubmissions(httpPort, warmup) : null;
        long waitMs = TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime()) + 5_000;
        Thread.sleep(Math.max(0, waitMs));
        long cpu = ownCpuNanos() - cpuBefore;
        long[] rtts = stats.rtts();
        Arrays.sort(rtts);
        double measured = seconds - Math.min(10, seconds / 4);
        System.out.printf("%d nodes, period %d ms, %d s measured: %d heartbeats (%.0f/s), %d jobs started, "
                        + "round trip p50 %.2f ms, p99 %.2f ms, max %.2f ms; missed (no reply within the period or failed): %d%n",
                nodes, periodMs, (long) measured, rtts.length, rtts.length / measured, stats.started.get(),
                pct(rtts, 0.50), pct(rtts, 0.99), rtts.length == 0 ? 0 : rtts[rtts.length - 1] / 1e6, stats.missed.get());
        // The tail comes in bursts (the daemon's collector pauses and what queues behind them): how
        // many whole seconds stayed under 20 ms tells the bursts from a slow steady state.
        int[] quiet = stats.secondsUnder(TimeUnit.MILLISECONDS.toNanos(20));
        System.out.printf("seconds whose slowest round trip was under 20 ms: %d of %d%n", quiet[0], quiet[1]);
        String timeline = System.getProperty("grove.load.timeline");
        if (timeline != null) {
            Files.write(Path.of(timeline), stats.timeline());
        }
        System.out.printf("driver CPU while heartbeating: %.1f s of %.0f s (%.2f cores)%n", cpu / 1e9,
                (double) seconds, cpu / 1e9 / seconds);
        System.out.printf("protocol version %d: %d heartbeats asked for by the scheduler%n", PROTOCOL, stats.pushed.get());
        if (toStart != null) {
            System.out.printf("submission to a node told to start the job, %d of %d: p50 %.1f ms, p90 %.1f ms, p99 %.1f ms, "
                    + "max %.1f ms%n", toStart.length, SUBMITS, pct(toStart, 0.5), pct(toStart, 0.9), pct(toStart, 0.99),
                    toStart.length == 0 ? 0 : toStart[toStart.length - 1] / 1e6);
        }
        for (LoadNode node : all) {
            node.client.close();
        }
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    /**
     * On the idle cluster, after the warm-up: operations of one 1-cpu job submitted one at a time,
     * each once the one before has started (or after 30 s).
     */
    private static long[] timedSubmissions(int httpPort, long warmup) throws Exception {
        List<Long> toStart = new ArrayList<>();
        Thread.sleep(Math.max(0, TimeUnit.NANOSECONDS.toMillis(warmup - System.nanoTime())));
        HttpClient http = HttpClient.newHttpClient();
        for (int i = 0; i < SUBMITS; i++) {
            long sent = System.nanoTime();
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort
                    + "/api/v1/operations")).header("X-Grove-User", "load").POST(HttpRequest.BodyPublishers.ofString(
                    "pool: " + List.of("batch", "prod", "adhoc").get(i % 3)
                            + "\ntasks: {main: {job_count: 1, command: 'true', cpu: 1, memory: 1Gi}}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 201) {
                throw new IllegalStateException("submit refused: " + response.body());
            }
            String id = response.body().replaceAll("(?s)^.*?\"id\"\\s*:\\s*\"([^\"]+)\".*", "$1");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!STARTED.containsKey(id) && System.nanoTime() < deadline) {
                LockSupport.parkNanos(200_000);
            }
            Long started = STARTED.get(id);
            if (started != null) {
                toStart.add(started - sent);
            }
            // the next submission a moment later, at no fixed phase of the nodes' periods
            Thread.sleep(20 + ThreadLocalRandom.current().nextInt(80));
        }
        return toStart.stream().mapToLong(Long::longValue).sorted().toArray();
    }

    private static long ownCpuNanos() {
        return ((OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private static double pct(long[] sorted, double q) {
        return sorted.length == 0 ? 0 : sorted[Math.min(sorted.length - 1, (int) (sorted.length * q))] / 1e6;
    }

}
