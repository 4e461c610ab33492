package io.grove.bench;

import io.grove.http.Transport;
import io.grove.server.Clock;
import io.grove.server.DaemonSettings;
import io.grove.server.SchedulerDaemon;
import io.grove.server.net.NodeEndpoint;
import io.netty.channel.EventLoopGroup;
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
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * From submission to every job (every rank) told to start, through the daemon, with simulated TCP
 * nodes of 8 GPUs in blocks and racks heartbeating every second (protocol 3: a node the scheduler
 * asks comes at once). The two loads the peers publish:
 * <ul>
 *   <li>{@code jobs}: 4,000 one-GPU jobs (40 operations of 100, three pools) on 500 nodes;</li>
 *   <li>{@code gangs}: 51 gangs of two 8-GPU ranks, each required in one rack, on 512 nodes.</li>
 * </ul>
 * Jobs run on once started. Prints the time from the first submission to the last start, and for
 * gangs each one's time from its submission to its last rank's start.
 *
 * <pre>java -cp bench/target/benchmarks.jar io.grove.bench.GangPlacementLatency jobs|gangs [nodes] [BLOCKSxRACKS]</pre>
 */
public final class GangPlacementLatency {

    private GangPlacementLatency() {
    }

    public static void main(String[] args) throws Exception {
        boolean gangs = args.length > 0 && args[0].equals("gangs");
        int nodes = args.length > 1 ? Integer.parseInt(args[1]) : gangs ? 512 : 500;
        String[] shape = (args.length > 2 ? args[2] : "4x8").split("x");
        int blocks = Integer.parseInt(shape[0]);
        int racks = Integer.parseInt(shape[1]);
        Path dir = Files.createTempDirectory("grove-gangs");
        Path pools = dir.resolve("pools.yaml");
        Files.writeString(pools, DaemonLoadDriver.POOLS.replace("  physical:\n",
                "  physical:\n    main_resource: gpu\n    topology_levels: [block, rack]\n"));
        DaemonSettings settings = DaemonSettings.defaults(pools, dir.resolve("data")).withPorts(0, 0)
                .withPeriods(Duration.ofSeconds(1), Duration.ofMillis(200))
                .withNodeConnectionsPerAddress(NodeEndpoint.MAX_CONNECTIONS);
        Map<String, Long> lastStart = new ConcurrentHashMap<>();
        Map<String, AtomicInteger> startsByOperation = new ConcurrentHashMap<>();
        AtomicInteger started = new AtomicInteger();
        try (SchedulerDaemon daemon = SchedulerDaemon.start(settings, Clock.SYSTEM)) {
            EventLoopGroup group = Transport.group(2);
            List<LoadNode> all = new ArrayList<>();
            for (int i = 0; i < nodes; i++) {
                LoadNode node = new LoadNode("gpu-" + i, RawNode.connect(group, "127.0.0.1", daemon.nodePort()),
                        LoadNode.GPU_LIMITS, false, start -> {
                            started.incrementAndGet();
                            startsByOperation.computeIfAbsent(start[1], op -> new AtomicInteger()).incrementAndGet();
                            lastStart.put(start[1], System.nanoTime());
                        });
                int rack = (int) ((long) i * blocks * racks / nodes);
                String topology = "{\"block\":\"b" + rack / racks + "\",\"rack\":\"r" + rack + "\"}";
                RawNode.Reply welcome = node.client.send(RawNode.handshake(node.id, node.limits, 3, topology))
                        .get(30, TimeUnit.SECONDS);
                if (!welcome.ok()) {
                    throw new IllegalStateException("handshake refused: " + welcome.text());
                }
                all.add(node);
            }
            long end = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
            LoadStats stats = new LoadStats();
            for (LoadNode node : all) {
                node.start(group, 1000, end, end, stats, ThreadLocalRandom.current().nextLong(1000));
            }
            Thread.sleep(3000);   // every node heard, a fair-share update of the tree run
            HttpClient http = HttpClient.newHttpClient();
            int operations = gangs ? 51 : 40;
            int expected = gangs ? 102 : 4000;
            String[] ids = new String[operations];
            long[] submitted = new long[operations];
            long first = System.nanoTime();
            for (int i = 0; i < operations; i++) {
                String pool = List.of("batch", "prod", "adhoc").get(i % 3);
                String spec = gangs
                        ? "pool: " + pool + "\nis_gang: true\ntopology: {required: rack}\n"
                                + "tasks: {main: {job_count: 2, command: 'true', gpu: 8, cpu: 8, memory: 64Gi}}"
                        : "pool: " + pool + "\ntasks: {main: {job_count: 100, command: 'true', gpu: 1, cpu: 1, memory: 8Gi}}";
                submitted[i] = System.nanoTime();
                HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                        + daemon.httpPort() + "/api/v1/operations")).header("X-Grove-User", "bench")
                        .POST(HttpRequest.BodyPublishers.ofString(spec)).build(), HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() != 201) {
                    throw new IllegalStateException("submit refused: " + response.body());
                }
                ids[i] = response.body().replaceAll("(?s)^.*?\"id\"\\s*:\\s*\"([^\"]+)\".*", "$1");
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (started.get() < expected && System.nanoTime() < deadline) {
                LockSupport.parkNanos(1_000_000);
            }
            long last = lastStart.values().stream().mapToLong(Long::longValue).max().orElse(first);
            System.out.printf(Locale.ROOT, "%s on %d nodes of 8 GPUs (%d blocks x %d racks): %d of %d started; "
                            + "first submission to last start %.2f s%n", gangs ? "51 gangs of two 8-GPU ranks, rack required"
                            : "4,000 one-GPU jobs", nodes, blocks, racks, started.get(), expected, (last - first) / 1e9);
            if (gangs) {
                long[] perGang = new long[operations];
                int whole = 0;
                for (int i = 0; i < operations; i++) {
                    AtomicInteger ranks = startsByOperation.get(ids[i]);
                    whole += ranks != null && ranks.get() == 2 ? 1 : 0;
                    Long done = lastStart.get(ids[i]);
                    perGang[i] = done == null ? Long.MAX_VALUE : done - submitted[i];
                }
                Arrays.sort(perGang);
                System.out.printf(Locale.ROOT, "gangs started whole: %d of %d; submission to its last rank told to start: "
                                + "p50 %.1f ms, p99 %.1f ms, max %.1f ms%n", whole, operations, perGang[operations / 2] / 1e6,
                        perGang[Math.min(operations - 1, operations * 99 / 100)] / 1e6, perGang[operations - 1] / 1e6);
            }
            for (LoadNode node : all) {
                node.client.close();
            }
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }
}
