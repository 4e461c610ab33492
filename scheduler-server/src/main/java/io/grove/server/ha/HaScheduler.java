package io.grove.server.ha;

import io.grove.api.Health;
import io.grove.http.ApiRequest;
import io.grove.http.ApiResponse;
import io.grove.http.ApiServer;
import io.grove.http.DaemonThreads;
import io.grove.http.Transport;
import io.grove.server.Clock;
import io.grove.server.DaemonRole;
import io.grove.server.DaemonSettings;
import io.grove.server.SchedulerDaemon.DaemonException;
import io.grove.server.SchedulerDaemon;
import io.grove.server.coord.Coordination;
import io.grove.server.coord.CoordinationException;
import io.grove.server.coord.Epoch;
import io.grove.server.coord.Fencing;
import io.grove.server.coord.ZkCoordination;
import io.grove.server.coord.ZkLayout;
import io.grove.server.net.NodeEndpoint;
import io.grove.server.state.StateLog;
import io.grove.server.state.ZkLogReader;
import io.grove.server.state.ZkStateLog;
import io.netty.channel.ChannelHandler;
import io.netty.channel.EventLoopGroup;
import io.netty.handler.ssl.SslContext;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A scheduler in a high-availability group. Its role is a {@link RoleMachine} fed on one thread
 * ("grove-ha") with the coordination's signals, the outcomes of what it asked for, and a tick;
 * {@link RoleEffects} performs the effects — the same code the simulation runs — and this class is
 * its port: it reads what it has not followed yet and runs a {@link SchedulerDaemon} whose state
 * goes to ZooKeeper, confirms the epoch away from the role's thread, and stops the daemon at once
 * when it steps down. Standby schedulers follow the leader's state
 * and answer {@code 503 NOT_LEADER} on the API. The daemon acts — answers as the leader, starts
 * jobs — only while the machine's lease runs ({@link #isLeader}).
 */
public final class HaScheduler implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(HaScheduler.class);

    /** How often a standby reads what the leader wrote. */
    static final Duration FOLLOW_EVERY = Duration.ofMillis(500);

    /** The leader as last read, and when (monotonic nanoseconds). */
    private record Known(LeaderRecord info, long readAt) {
    }

    private final DaemonSettings settings;
    private final Clock clock;
    private final HaSettings ha;
    private final ZkLayout layout;
    private final Coordination coordination;
    private final ZkLogReader reader;
    private final LongSupplier nanos;
    private final RoleEffects effects;
    private final ExecutorService transitions = Executors.newSingleThreadExecutor(DaemonThreads.named("grove-ha"));
    private final ExecutorService confirmer = Executors.newSingleThreadExecutor(DaemonThreads.named("grove-ha-confirm"));
    private final ScheduledExecutorService timer = Executors.newScheduledThreadPool(2, DaemonThreads.named("grove-ha-timer"));
    private volatile Known known;
    private SchedulerDaemon leader;
    private StateLog log;
    private final RoleRouter router = new RoleRouter(new StandbyApi(this::health), this::isLeader);
    private final NodeRouter nodeRouter = new NodeRouter(this::leaderNodes);
    private EventLoopGroup httpGroup;
    /** The node port's own event loops: no HTTP client can slow a heartbeat's reply. */
    private EventLoopGroup nodeGroup;
    private ApiServer http;
    private NodeEndpoint nodeEndpoint;
    private volatile boolean closed;

    private HaScheduler(DaemonSettings settings, Clock clock, HaSettings ha, Coordination coordination, LongSupplier nanos) {
        this.settings = settings;
        this.clock = clock;
        this.ha = ha;
        this.layout = ha.layout();
        this.coordination = coordination;
        this.reader = new ZkLogReader(coordination, layout);
        this.nanos = nanos;
        this.effects = new RoleEffects(new RoleMachine(ha.sessionTimeout()), coordination, layout, new DaemonPort());
    }

    /**
     * Connects to ZooKeeper, starts as a standby and joins the election.
     *
     * @throws DaemonException if ZooKeeper cannot be reached within the session timeout
     */
    public static HaScheduler start(DaemonSettings settings, Clock clock, HaSettings ha) throws DaemonException {
        return start(settings, clock, ha, ZkCoordination.create(ha.connect(), ha.layout(), ha.sessionTimeout(),
                ha.advertisedApi(), ha.auth()), System::nanoTime);
    }

    /** A scheduler of a group coordinated by {@code coordination} (the tests' in-memory twin, or ZooKeeper). */
    static HaScheduler start(DaemonSettings settings, Clock clock, HaSettings ha, Coordination coordination,
            LongSupplier nanos) throws DaemonException {
        HaScheduler scheduler = new HaScheduler(settings, clock, ha, coordination, nanos);
        try {
            scheduler.serve();
            coordination.start(signal -> scheduler.post(new RoleMachine.Signalled(signal)));
            long tick = Fencing.confirmEvery(ha.sessionTimeout()).toMillis();
            scheduler.timer.scheduleWithFixedDelay(() -> scheduler.post(new RoleMachine.Tick()), tick, tick,
                    TimeUnit.MILLISECONDS);
            scheduler.timer.scheduleWithFixedDelay(scheduler::follow, 0, FOLLOW_EVERY.toMillis(), TimeUnit.MILLISECONDS);
            return scheduler;
        } catch (CoordinationException e) {
            scheduler.close();
            throw new DaemonException(e.getMessage(), e);
        } catch (Exception e) {
            scheduler.close();
            throw new DaemonException("cannot start in high-availability mode: " + e.getMessage(), e);
        }
    }

    /** Whether this scheduler leads now: it is the leader and its lease runs. */
    public boolean isLeader() {
        return effects.isLeader();
    }

    /** The API port, the same whatever the role. */
    public int httpPort() {
        return http.port();
    }

    /** The node port, the same whatever the role. */
    public int nodePort() {
        return nodeEndpoint.port();
    }

    /** The leader as this scheduler knows it: read lately while connected, and not itself unless it leads. */
    private LeaderRecord leaderInfo() {
        Known current = known;
        if (current == null || !coordination.connected()
                || nanos.getAsLong() - current.readAt() > ha.sessionTimeout().toNanos()) {
            return null;
        }
        Epoch own = effects.epoch();
        if (own != null && current.info().epoch() == own.number() && !isLeader()) {
            return null;   // this scheduler's own record, while it does not lead: naming itself would loop clients
        }
        return current.info();
    }

    private String leaderNodes() {
        LeaderRecord info = leaderInfo();
        return info == null ? null : info.nodes();
    }

    private Health health() {
        Epoch own = effects.epoch();
        if (isLeader() && own != null) {
            return Health.leader(own.number(), ha.advertisedApi());
        }
        LeaderRecord info = leaderInfo();
        return Health.standby(info == null ? null : info.epoch(), info == null ? null : info.api());
    }

    // ---------------------------------------------------------------- the role (on the "grove-ha" thread)

    private void post(RoleMachine.Event event) {
        try {
            transitions.execute(() -> effects.handle(event));
        } catch (RejectedExecutionException e) {
            // closed
        }
    }

    /** The daemon's side of the role's effects: its {@link SchedulerDaemon}, routers and log. */
    private final class DaemonPort implements RolePort {

        private long started;

        @Override
        public long nanos() {
            return nanos.getAsLong();
        }

        @Override
        public LeaderRecord start(Epoch epoch) throws Exception {
            started = System.nanoTime();
            ZkStateLog[] opening = new ZkStateLog[1];
            opening[0] = ZkStateLog.open(coordination, layout, epoch, reader, () -> post(
                    opening[0] != null && opening[0].uncertain() ? new RoleMachine.Uncertain(epoch)
                            : new RoleMachine.Fenced(epoch)));
            log = opening[0];
            leader = SchedulerDaemon.start(settings, clock, new LeaderRole(opening[0]));
            return new LeaderRecord(epoch.number(), ha.advertisedApi(), ha.advertisedNodes());
        }

        @Override
        public void recovered(LeaderRecord record) {
            known = new Known(record, nanos.getAsLong());
            LOG.info("leading at epoch {}: revived {} events in {} ms", record.epoch(), log.recovered().size(),
                    (System.nanoTime() - started) / 1_000_000);
        }

        @Override
        public void stepDown(String why) {
            router.lead(null);
            nodeRouter.lead(null);
            SchedulerDaemon current = leader;
            leader = null;
            if (current != null) {
                current.stepDown();
            } else if (log != null) {
                log.close();
            }
            log = null;
            LOG.info("standby: following the leader's state in ZooKeeper at {}{}", ha.connect(), ha.root());
        }

        @Override
        public void resign() {
            SchedulerDaemon current = leader;
            leader = null;
            if (current != null) {
                current.close();
            }
            log = null;
        }

        @Override
        public void post(RoleMachine.Event event) {
            HaScheduler.this.post(event);
        }

        @Override
        public void confirmAside(Runnable confirmation) {
            confirmer.execute(confirmation);
        }

        @Override
        public boolean closing() {
            return closed;
        }
    }

    /** The leading daemon's role: its state in ZooKeeper, its endpoints behind the routers, acting while it leads. */
    private final class LeaderRole implements DaemonRole {

        private final StateLog opened;

        LeaderRole(StateLog opened) {
            this.opened = opened;
        }

        @Override
        public StateLog openState(DaemonSettings ignored) {
            return opened;
        }

        @Override
        public Health health() {
            return HaScheduler.this.health();
        }

        @Override
        public boolean mayAct() {
            return isLeader();
        }

        @Override
        public boolean startsWrittenFirst() {
            return true;
        }

        @Override
        public Consumer<Function<ApiRequest, CompletableFuture<ApiResponse>>> apiHost() {
            return router::lead;
        }

        @Override
        public Consumer<Supplier<? extends ChannelHandler>> nodeHost() {
            return nodeRouter::lead;
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
            LeaderRecord record = LeaderRecord.read(coordination, layout);
            known = record == null ? null : new Known(record, nanos.getAsLong());
        } catch (Exception e) {
            LOG.debug("cannot read the leader: {}", e.toString());
        }
        if (effects.epoch() != null) {
            return;
        }
        try {
            reader.catchUp();
        } catch (Exception e) {
            LOG.debug("cannot follow the leader's state: {}", e.toString());
        }
    }

    /** Leaves the election (a leader saves a snapshot first), stops answering, disconnects. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        timer.shutdownNow();
        confirmer.shutdownNow();
        try {
            transitions.submit(() -> effects.handle(new RoleMachine.Close())).get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            LOG.warn("closing: {}", e.toString());
        }
        transitions.shutdownNow();
        coordination.close();
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
    }
}
