package io.grove.server.ha;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.grove.api.Health;
import io.grove.http.ApiRequest;
import io.grove.http.ApiResponse;
import io.grove.http.ApiServer;
import io.grove.http.Transport;
import io.grove.protocol.ProtocolJson;
import io.grove.server.Clock;
import io.grove.server.DaemonRole;
import io.grove.server.DaemonSettings;
import io.grove.server.SchedulerDaemon;
import io.grove.server.SchedulerDaemon.DaemonException;
import io.grove.server.net.NodeEndpoint;
import io.grove.server.state.StateLog;
import io.grove.server.state.ZkLayout;
import io.grove.server.state.ZkLogReader;
import io.grove.server.state.ZkStateLog;
import io.netty.channel.ChannelHandler;
import io.netty.channel.EventLoopGroup;
import io.netty.handler.ssl.SslContext;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.recipes.leader.LeaderLatchListener;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A scheduler in a high-availability group: standby schedulers follow the leader's state in
 * ZooKeeper and answer {@code 503 NOT_LEADER} on the API; the one the leader latch elects claims
 * the next epoch (which fences every write of an older leader), reads what it has not followed
 * yet, and runs as a {@link SchedulerDaemon} whose state goes to ZooKeeper. A leader that loses
 * ZooKeeper (its connection suspended, its session gone) or finds its writes fenced stops at once —
 * no more scheduling, no more answers to nodes — and becomes a standby again. Transitions run one
 * at a time on a thread of their own.
 */
public final class HaScheduler implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(HaScheduler.class);
    private static final ObjectMapper JSON = ProtocolJson.mapper();

    /** How often a standby reads what the leader wrote. */
    static final Duration FOLLOW_EVERY = Duration.ofMillis(500);

    /** Where the leader is, as it wrote it in {@link ZkLayout#leader()}. */
    record LeaderInfo(long epoch, String api, String nodes) {
    }

    private final DaemonSettings settings;
    private final Clock clock;
    private final HaSettings ha;
    private final ZkLayout layout;
    private final CuratorFramework zk;
    private final ZkLogReader reader;
    private final ExecutorService transitions = Executors.newSingleThreadExecutor(daemonThread("grove-ha"));
    private final ScheduledExecutorService follower = Executors.newSingleThreadScheduledExecutor(daemonThread("grove-ha-follow"));
    private LeaderLatch latch;
    private volatile SchedulerDaemon leader;
    private volatile LeaderInfo known;
    private final RoleRouter router = new RoleRouter(new StandbyApi(this::health));
    private final NodeRouter nodeRouter = new NodeRouter(() -> known == null ? null : known.nodes());
    private EventLoopGroup httpGroup;
    /** The node port's own event loops: no HTTP client can slow a heartbeat's reply. */
    private EventLoopGroup nodeGroup;
    private ApiServer http;
    private NodeEndpoint nodeEndpoint;
    private volatile boolean closed;

    private HaScheduler(DaemonSettings settings, Clock clock, HaSettings ha, CuratorFramework zk) {
        this.settings = settings;
        this.clock = clock;
        this.ha = ha;
        this.layout = ha.layout();
        this.zk = zk;
        this.reader = new ZkLogReader(zk, layout);
    }

    /**
     * Connects to ZooKeeper, starts as a standby and joins the election.
     *
     * @throws DaemonException if ZooKeeper cannot be reached within the session timeout
     */
    public static HaScheduler start(DaemonSettings settings, Clock clock, HaSettings ha) throws DaemonException {
        CuratorFramework zk = CuratorFrameworkFactory.builder().connectString(ha.connect())
                .sessionTimeoutMs((int) ha.sessionTimeout().toMillis())
                .connectionTimeoutMs((int) Math.min(ha.sessionTimeout().toMillis(), 15_000))
                .retryPolicy(new ExponentialBackoffRetry(200, 3)).build();
        zk.start();
        HaScheduler scheduler = new HaScheduler(settings, clock, ha, zk);
        try {
            if (!zk.blockUntilConnected((int) ha.sessionTimeout().toMillis(), TimeUnit.MILLISECONDS)) {
                throw new DaemonException("cannot reach ZooKeeper at " + ha.connect() + " within "
                        + ha.sessionTimeout().toSeconds() + " s", null);
            }
            zk.createContainers(layout(ha).log());
            scheduler.serve();
            scheduler.follower.scheduleWithFixedDelay(scheduler::follow, 0, FOLLOW_EVERY.toMillis(), TimeUnit.MILLISECONDS);
            scheduler.joinElection();
            return scheduler;
        } catch (DaemonException e) {
            scheduler.close();
            throw e;
        } catch (Exception e) {
            scheduler.close();
            throw new DaemonException("cannot start in high-availability mode: " + e.getMessage(), e);
        }
    }

    private static ZkLayout layout(HaSettings ha) {
        return ha.layout();
    }

    private void joinElection() throws Exception {
        latch = new LeaderLatch(zk, layout.election(), ha.advertisedApi() == null ? "" : ha.advertisedApi());
        latch.addListener(new LeaderLatchListener() {
            @Override
            public void isLeader() {
                lead();
            }

            @Override
            public void notLeader() {
                stepDown("lost the leadership (ZooKeeper connection suspended or session lost)");
            }
        }, transitions);
        latch.start();
    }

    /** The ZooKeeper client (for tests that cut it off). */
    CuratorFramework zookeeper() {
        return zk;
    }

    /** Whether this scheduler leads now. */
    public boolean isLeader() {
        return leader != null;
    }

    /** The API port, the same whatever the role. */
    public int httpPort() {
        return http.port();
    }

    private Health health() {
        LeaderInfo info = known;
        SchedulerDaemon current = leader;
        if (current != null && info != null) {
            return Health.leader(info.epoch(), info.api());
        }
        return Health.standby(info == null ? null : info.epoch(), info == null ? null : info.api());
    }

    // ---------------------------------------------------------------- transitions (on the "grove-ha" thread)

    private void lead() {
        if (closed || leader != null) {
            return;
        }
        StateLog log = null;
        try {
            ZkStateLog.Epoch epoch = ZkStateLog.claimEpoch(zk, layout);
            LOG.info("elected: epoch {}; reading what the previous leader wrote", epoch.number());
            long started = System.nanoTime();
            log = ZkStateLog.open(zk, layout, epoch, reader, () -> transitions.execute(
                    () -> stepDown("a newer leader fenced this one's writes")));
            advertise(epoch);
            StateLog opened = log;
            known = new LeaderInfo(epoch.number(), ha.advertisedApi(), ha.advertisedNodes());
            leader = SchedulerDaemon.start(settings, clock, new DaemonRole() {
                @Override
                public StateLog openState(DaemonSettings ignored) {
                    return opened;
                }

                @Override
                public Health health() {
                    return HaScheduler.this.health();
                }

                @Override
                public Consumer<Function<ApiRequest, CompletableFuture<ApiResponse>>> apiHost() {
                    return router::lead;
                }

                @Override
                public Consumer<Supplier<? extends ChannelHandler>> nodeHost() {
                    return nodeRouter::lead;
                }
            });
            LOG.info("leading at epoch {}: revived {} events in {} ms", epoch.number(), opened.recovered().size(),
                    (System.nanoTime() - started) / 1_000_000);
        } catch (Exception e) {
            LOG.error("cannot lead: {}; giving the leadership up", e.getMessage(), e);
            if (log != null) {
                log.close();
            }
            router.lead(null);
            nodeRouter.lead(null);
            transitions.execute(this::rejoinElection);
        }
    }

    /** Writes where the leader is, fenced by its epoch like every write (a stale leader's node is replaced). */
    private void advertise(ZkStateLog.Epoch epoch) throws Exception {
        byte[] data = JSON.writeValueAsBytes(new LeaderInfo(epoch.number(), ha.advertisedApi(), ha.advertisedNodes()));
        var check = zk.transactionOp().check().withVersion(epoch.version()).forPath(layout.epoch());
        var create = zk.transactionOp().create().withMode(CreateMode.EPHEMERAL).forPath(layout.leader(), data);
        if (zk.checkExists().forPath(layout.leader()) != null) {
            zk.transaction().forOperations(check, zk.transactionOp().delete().forPath(layout.leader()), create);
        } else {
            zk.transaction().forOperations(check, create);
        }
    }

    private void stepDown(String why) {
        SchedulerDaemon current = leader;
        if (current == null) {
            return;
        }
        leader = null;
        router.lead(null);
        nodeRouter.lead(null);
        LOG.warn("stepping down: {}; no more scheduling, nodes go elsewhere", why);
        current.stepDown();
        LOG.info("standby: following the leader's state in ZooKeeper at {}{}", ha.connect(), ha.root());
    }

    private void rejoinElection() {
        try {
            if (latch != null) {
                latch.close(LeaderLatch.CloseMode.SILENT);
            }
            if (!closed) {
                joinElection();
            }
        } catch (Exception e) {
            LOG.error("cannot rejoin the election: {}", e.getMessage(), e);
        }
    }

    /** Opens the API and node ports for the scheduler's whole life; they answer as the role of the moment. */
    private void serve() throws Exception {
        SslContext tls = settings.security().httpTls() == null ? null : settings.security().httpTls().server();
        httpGroup = Transport.group(2);
        http = ApiServer.start(httpGroup, httpGroup, settings.bindAddress(), settings.httpPort(), router, tls,
                settings.httpLimits());
        SslContext nodeTls = settings.security().nodeTls() == null ? null : settings.security().nodeTls().server();
        nodeGroup = Transport.group(2);
        nodeEndpoint = NodeEndpoint.start(nodeGroup, nodeGroup, settings.bindAddress(), settings.nodePort(),
                settings.maxFrameBytes(), settings.nodeIdleTimeout(), nodeRouter::newSession, nodeTls,
                settings.nodeConnectionsPerAddress());
        LOG.info("standby: following the leader's state in ZooKeeper at {}{}", ha.connect(), ha.root());
    }

    // ---------------------------------------------------------------- following

    private void follow() {
        try {
            byte[] data = zk.getData().forPath(layout.leader());
            known = JSON.readValue(data, LeaderInfo.class);
        } catch (KeeperException.NoNodeException e) {
            if (leader == null) {
                known = null;
            }
        } catch (Exception e) {
            LOG.debug("cannot read the leader: {}", e.toString());
        }
        if (leader != null) {
            return;
        }
        try {
            reader.catchUp();
        } catch (Exception e) {
            LOG.debug("cannot follow the leader's state: {}", e.toString());
        }
    }

    private static ThreadFactory daemonThread(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
    }

    /** Leaves the election (a leader saves a snapshot first), stops answering, disconnects. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        follower.shutdownNow();
        try {
            transitions.submit(() -> {
                SchedulerDaemon current = leader;
                leader = null;
                if (current != null) {
                    current.close();
                }
            }).get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            LOG.warn("closing: {}", e.toString());
        }
        try {
            if (latch != null) {
                latch.close(LeaderLatch.CloseMode.SILENT);
            }
        } catch (Exception e) {
            LOG.debug("closing the latch: {}", e.toString());
        }
        transitions.shutdownNow();
        if (http != null) {
            http.close();
        }
        if (nodeEndpoint != null) {
            nodeEndpoint.close();
        }
        if (nodeGroup != null) {
            nodeGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
        if (httpGroup != null) {
            httpGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
        zk.close();
    }
}
