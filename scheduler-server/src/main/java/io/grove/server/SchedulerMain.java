package io.grove.server;

import io.grove.http.DaemonThreads;
import io.grove.server.accounting.AccountingSettings;
import io.grove.server.coord.ZkAuth;
import io.grove.server.coord.ZkLayout;
import io.grove.server.ha.HaScheduler;
import io.grove.server.ha.HaSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

/**
 * Runs the daemon until it is told to stop (SIGTERM, Ctrl-C): a shutdown hook saves a snapshot
 * and closes it. {@code grove scheduler} parses its flags and calls {@link #run}; this class's own
 * {@code main} takes {@code --key value} pairs for tools and tests.
 */
public final class SchedulerMain {

    private SchedulerMain() {
    }

    /** Starts, prints where it listens (one line starting with {@code ready}), and waits. */
    public static void run(DaemonSettings settings) throws SchedulerDaemon.DaemonException, InterruptedException {
        SchedulerDaemon daemon = SchedulerDaemon.start(settings, Clock.SYSTEM);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(DaemonThreads.shutdownHook("grove-shutdown", () -> {
            daemon.close();
            stopped.countDown();
        }));
        System.out.println("ready node_port=" + daemon.nodePort() + " http_port=" + daemon.httpPort()
                + " api=http://" + settings.bindAddress() + ":" + daemon.httpPort() + "/api/v1");
        System.out.flush();
        stopped.await();
    }

    /**
     * Runs a scheduler of a high-availability group until it is told to stop: a standby until it
     * is elected; a leader saves a snapshot to ZooKeeper when it stops.
     */
    public static void run(DaemonSettings settings, HaSettings ha) throws SchedulerDaemon.DaemonException,
            InterruptedException {
        HaScheduler scheduler = HaScheduler.start(settings, Clock.SYSTEM, ha);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(DaemonThreads.shutdownHook("grove-shutdown", () -> {
            scheduler.close();
            stopped.countDown();
        }));
        System.out.println("ready node_port=" + scheduler.nodePort() + " http_port=" + scheduler.httpPort()
                + " api=" + ha.advertisedApi() + "/api/v1" + " zookeeper=" + ha.connect() + ha.root() + (scheduler.isLeader() ? " role=leader" : " role=standby"));
        System.out.flush();
        stopped.await();
    }

    public static void main(String[] args) throws Exception {
        Path config = null;
        Path data = null;
        int nodePort = DaemonSettings.DEFAULT_NODE_PORT;
        int httpPort = DaemonSettings.DEFAULT_HTTP_PORT;
        Duration update = Duration.ofMillis(200);
        String zookeeper = null;
        String root = ZkLayout.DEFAULT_ROOT;
        Duration session = HaSettings.DEFAULT_SESSION_TIMEOUT;
        String accountingDb = null;
        Path zookeeperAuth = null;
        long compactAfter = 0;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--accounting-db" -> accountingDb = args[i + 1];
                case "--compact-after-records" -> compactAfter = Long.parseLong(args[i + 1]);
                case "--zookeeper" -> zookeeper = args[i + 1];
                case "--zookeeper-root" -> root = args[i + 1];
                case "--zookeeper-auth-file" -> zookeeperAuth = Path.of(args[i + 1]);
                case "--zookeeper-session-timeout-ms" -> session = Duration.ofMillis(Long.parseLong(args[i + 1]));
                case "--config" -> config = Path.of(args[i + 1]);
                case "--data-dir" -> data = Path.of(args[i + 1]);
                case "--node-port" -> nodePort = Integer.parseInt(args[i + 1]);
                case "--http-port" -> httpPort = Integer.parseInt(args[i + 1]);
                case "--fair-share-update-period-ms" -> update = Duration.ofMillis(Long.parseLong(args[i + 1]));
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        if (config == null || data == null || !Files.isRegularFile(config)) {
            throw new IOException("usage: SchedulerMain --config FILE --data-dir DIR [--node-port N] [--http-port N]");
        }
        DaemonSettings defaults = DaemonSettings.defaults(config, data);
        DaemonSettings settings = defaults.withPorts(nodePort, httpPort).withPeriods(defaults.heartbeatPeriod(), update)
                .withAccounting(new AccountingSettings(accountingDb, null, null, null, true));
        if (compactAfter > 0) {
            settings = settings.toBuilder().compactAfterRecords(compactAfter).build();
        }
        if (zookeeper == null) {
            run(settings);
        } else {
            run(settings, new HaSettings(zookeeper, root, session, "http://127.0.0.1:" + httpPort,
                    "127.0.0.1:" + nodePort, zookeeperAuth == null ? null : ZkAuth.read(zookeeperAuth)));
        }
    }
}
