package io.grove.server;

import io.grove.accounting.AccountingException;
import io.grove.config.LoadResult;
import io.grove.config.PoolsConfigLoader;
import io.grove.core.cluster.Cluster;
import io.grove.core.cluster.GangListener;
import io.grove.core.forecast.Cadence;
import io.grove.core.pool.PoolsConfig;
import io.grove.http.ApiServer;
import io.grove.http.Secrets;
import io.grove.http.Transport;
import io.grove.server.accounting.Ledger;
import io.grove.server.http.Api;
import io.grove.server.http.Authenticator;
import io.grove.server.http.EventHub;
import io.grove.server.loop.SchedulerLoop;
import io.grove.server.metrics.SchedulerMetrics;
import io.grove.server.net.HeartbeatBatcher;
import io.grove.server.net.NodeAddresses;
import io.grove.server.net.NodeEndpoint;
import io.grove.server.net.NodeSession;
import io.grove.server.security.AuditLog;
import io.grove.server.security.Identities;
import io.grove.server.security.JwtIdentities;
import io.grove.server.security.Security;
import io.grove.server.security.TokenStore;
import io.grove.server.state.Journal;
import io.grove.server.state.JournalingListener;
import io.grove.server.state.Revival;
import io.grove.server.state.StateListeners;
import io.grove.server.state.StateLog;
import io.grove.server.state.WriteAhead;
import io.netty.channel.EventLoopGroup;
import io.netty.handler.ssl.SslContext;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduler daemon, wired with constructors: the pools file, the journal and revival, the
 * registry's listeners ({@link StateListeners}, the journal first), the scheduler loop, the node
 * endpoint, the HTTP API and config reload. Its cadence (fair-share updates, node liveness,
 * integral-volume saves, compaction) runs in {@link DaemonTimers}.
 */
public final class SchedulerDaemon implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SchedulerDaemon.class);

    private final DaemonSettings settings;
    private final Clock clock;
    private final StateLog journal;
    private final SchedulerLoop loop;
    private final SchedulerMetrics metrics;
    private final ConfigReloader reloader;
    private final EventLoopGroup boss;
    private final EventLoopGroup workers;
    /** The node port's own event loops: no HTTP client can slow a heartbeat's reply. */
    private final EventLoopGroup nodeLoops;
    /** The daemon's own node endpoint; {@code null} when its role hosts the node sessions. */
    private final NodeEndpoint nodes;
    /** The daemon's own HTTP server; {@code null} when its role hosts the API. */
    private final ApiServer api;
    private final DaemonRole role;
    private final DaemonTimers timers;
    private final Compaction compaction;

    private final AuditLog audit;
    /** The job ledger and the pools' metering; {@code null} with accounting off. */
    private final Ledger ledger;

    private SchedulerDaemon(DaemonSettings settings, Clock clock, StateLog journal, SchedulerLoop loop,
            SchedulerMetrics metrics, ConfigReloader reloader, EventLoopGroup boss, EventLoopGroup workers,
            EventLoopGroup nodeLoops, NodeEndpoint nodes, ApiServer api, DaemonTimers timers, Compaction compaction,
            AuditLog audit, DaemonRole role, Ledger ledger) {
        this.role = role;
        this.ledger = ledger;
        this.compaction = compaction;
        this.audit = audit;
        this.settings = settings;
        this.clock = clock;
        this.journal = journal;
        this.loop = loop;
        this.metrics = metrics;
        this.reloader = reloader;
        this.boss = boss;
        this.workers = workers;
        this.nodeLoops = nodeLoops;
        this.nodes = nodes;
        this.api = api;
        this.timers = timers;
    }

    /** The security stage's results: who may call ({@code null}: anyone, on loopback), the node token, TLS, the audit log. */
    private record Secured(Identities tokens, String nodeToken,
            AuditLog audit, SslContext nodeTls,
            SslContext httpTls) {
    }

    /** The recovery stage's results: the configuration, the journal and the cluster it revived. */
    private record Recovered(String configText, PoolsConfig config, StateLog journal, Cluster cluster,
            Revival.Outcome revived, SchedulerMetrics metrics, Ledger ledger, EventHub events) {
    }

    /**
     * Starts the daemon in stages — security, recovery, endpoints, timers — each adding what it
     * opens to one list that is closed, newest first, if a later stage fails.
     *
     * @throws DaemonException if the pools file is invalid, the journal cannot be used, or a port is taken
     */
    public static SchedulerDaemon start(DaemonSettings settings, Clock clock) throws DaemonException {
        return start(settings, clock, DaemonRole.SINGLE);
    }

    /** Starts the daemon in a role: on its own, or as the leader of a high-availability group. */
    public static SchedulerDaemon start(DaemonSettings settings, Clock clock, DaemonRole role) throws DaemonException {
        refuseUnsafeSecurity(settings);
        Closer opened = new Closer();
        try {
            Secured secured = security(settings, clock, opened);
            Recovered recovered = recovery(settings, clock, role, opened);
            return endpointsAndTimers(settings, clock, secured, recovered, role, opened);
        } catch (DaemonException e) {
            opened.closeAll(e);
            throw e;
        } catch (Exception e) {
            DaemonException failure = new DaemonException("cannot start: " + e.getMessage(), e);
            opened.closeAll(failure);
            throw failure;
        }
    }

    /** Settings that would expose the cluster are refused before anything is opened. */
    private static void refuseUnsafeSecurity(DaemonSettings settings) throws DaemonException {
        Security security = settings.security();
        if (security.insecureLocal() && !isLoopback(settings.bindAddress())) {
            throw new DaemonException("insecure local mode binds to loopback only, not " + settings.bindAddress()
                    + "; give a tokens file (--tokens-file) to listen elsewhere", null);
        }
        if (!security.insecureLocal() && !security.usersAuthenticated()) {
            throw new DaemonException("no tokens file: give --tokens-file FILE (users' bearer tokens) or JWT sign-in "
                    + "(--oidc-issuer, --oidc-audience), or run an unauthenticated loopback-only daemon with --insecure-local",
                    null);
        }
        if (!security.insecureLocal() && !isLoopback(settings.bindAddress()) && !security.nodesAuthenticated()
                && !security.allowUnauthenticatedNodes()) {
            throw new DaemonException("listening on " + settings.bindAddress() + " with no node authentication: any "
                    + "machine could join as a node and be sent jobs with their environments; give --node-token-file "
                    + "or mutual TLS (--node-tls-ca), or --allow-unauthenticated-nodes on a network where only nodes "
                    + "reach the node port", null);
        }
    }

    /** TLS contexts, the tokens file, the node token, the private data directory and the audit log. */
    private static Secured security(DaemonSettings settings, Clock clock, Closer opened) throws DaemonException {
        Security security = settings.security();
        try {
            SslContext nodeTls = security.nodeTls() == null ? null : security.nodeTls().server();
            SslContext httpTls = security.httpTls() == null ? null : security.httpTls().server();
            TokenStore tokens = security.tokensFile() == null ? null
                    : TokenStore.load(security.tokensFile());
            JwtIdentities jwts = security.oidc() == null ? null
                    : JwtIdentities.start(security.oidc(), clock);
            String nodeToken = security.nodeTokenFile() == null ? null : Secrets.read(security.nodeTokenFile());
            Journal.createPrivateDirectory(settings.dataDir());
            AuditLog audit = new AuditLog(
                    security.auditLog() != null ? security.auditLog() : settings.dataDir().resolve("audit.log"));
            opened.add(audit, audit::close);
            return new Secured(tokens == null && jwts == null ? null : Identities.of(tokens, jwts),
                    nodeToken, audit, nodeTls, httpTls);
        } catch (IOException e) {
            throw new DaemonException(e.getMessage(), e);
        }
    }

    /** The pools file, the journal, and the cluster revived from it, with its listeners. */
    private static Recovered recovery(DaemonSettings settings, Clock clock, DaemonRole role, Closer opened)
            throws DaemonException {
        String text;
        try {
            text = Files.readString(settings.configFile());
        } catch (IOException e) {
            throw new DaemonException("cannot read the pools file " + settings.configFile() + ": " + e.getMessage(), e);
        }
        LoadResult<PoolsConfig> config = PoolsConfigLoader.load(text, settings.configFile().toString());
        if (!config.ok()) {
            throw new DaemonException("the pools file is invalid:\n" + config.describe(), null);
        }
        StateLog journal;
        try {
            journal = role.openState(settings);
        } catch (IOException e) {
            throw new DaemonException(e.getMessage(), e);
        }
        opened.add(journal, journal::close);
        Cluster cluster = new Cluster(config.value(), settings.cluster());
        Revival.Outcome revived = Revival.replay(cluster, journal.recovered(), clock.now());
        SchedulerMetrics metrics = new SchedulerMetrics();
        opened.add(metrics, metrics::close);
        Ledger ledger = openLedger(settings, opened, metrics);
        if (ledger != null) {
            ledger.revived(revived, cluster);
        }
        EventHub events = new EventHub();
        StateEvents said = new StateEvents(cluster, events, clock);
        JournalingListener journaling = new JournalingListener(journal);
        cluster.gangListener(GangListener.of(journaling, said));
        StateListeners listeners = StateListeners.journalFirst(journaling)
                .add("events", said)
                .add("metrics", metrics.listener(cluster.registry()))
                .add("ledger", ledger == null ? null : ledger.listener(cluster))
                .add("log", new FinishedOperationsLog())
                .build();
        cluster.registry().listener(listeners);
        LOG.debug("state listeners, in order: {}", listeners.names());
        journal.compact(Compaction.withLedger(Revival.capture(cluster, clock.now()), ledger).events());
        return new Recovered(text, config.value(), journal, cluster, revived, metrics, ledger, events);
    }

    /** The ledger on the database the settings name, or {@code null} with accounting off. */
    private static Ledger openLedger(DaemonSettings settings, Closer opened, SchedulerMetrics metrics) throws DaemonException {
        if (!settings.accounting().enabled()) {
            return null;
        }
        try {
            Ledger ledger = new Ledger(settings.accounting().open(settings.dataDir()), settings.accounting().retention(),
                    settings.accounting().meterEvery(), settings.accounting().writeMeteringEvery(), metrics::metered);
            opened.add(ledger, ledger::close);
            metrics.watch(ledger);
            LOG.info("accounting in {}; job records kept {} days", ledger.describe(),
                    settings.accounting().retention().toDays());
            return ledger;
        } catch (AccountingException e) {
            throw new DaemonException(e.getMessage(), e);
        }
    }

    /** The scheduler's thread, the node endpoint, the API, the pools-file watch, then the timers. */
    private static SchedulerDaemon endpointsAndTimers(DaemonSettings settings, Clock clock, Secured secured,
            Recovered recovered, DaemonRole role, Closer opened) throws Exception {
        SchedulerMetrics metrics = recovered.metrics();
        StateLog journal = recovered.journal();
        SchedulerLoop loop = new SchedulerLoop(recovered.cluster());
        opened.add(loop, loop::close);
        WriteAhead writeAhead = new WriteAhead(journal, loop);
        metrics.watch(journal);
        ConfigReloader reloader = new ConfigReloader(settings.configFile(), recovered.config(), recovered.configText(),
                loop, metrics, clock);
        opened.add(reloader, reloader::close);
        EventLoopGroup boss = Transport.group(1);
        opened.add(boss, () -> boss.shutdownGracefully(0, 1, TimeUnit.SECONDS));
        EventLoopGroup workers = Transport.group(2);
        opened.add(workers, () -> workers.shutdownGracefully(0, 1, TimeUnit.SECONDS));
        EventLoopGroup nodeLoops = Transport.group(2);
        opened.add(nodeLoops, () -> nodeLoops.shutdownGracefully(0, 1, TimeUnit.SECONDS));
        AtomicLong numbers = new AtomicLong(recovered.revived().highestOperationNumber());
        NodeAddresses addresses = new NodeAddresses();
        WorkArrival arrival = new WorkArrival(addresses);
        HeartbeatBatcher batcher = new HeartbeatBatcher(loop, clock, new HeartbeatBatcher.Gate(role::mayAct,
                role.startsWrittenFirst() ? journal::durable : null));
        batcher.afterTurn(arrival::nudgeAsked);
        Supplier<NodeSession> sessions = () -> new NodeSession(loop, batcher, clock, settings.heartbeatPeriod(),
                settings.cluster().nodeHeartbeatTimeout(), metrics, addresses, secured.nodeToken(), secured.audit());
        NodeEndpoint nodeEndpoint = null;
        if (role.nodeHost() == null) {
            nodeEndpoint = Listening.on("nodes", settings.bindAddress(), settings.nodePort(), "--node-port",
                    () -> NodeEndpoint.start(nodeLoops, nodeLoops, settings.bindAddress(), settings.nodePort(),
                            settings.maxFrameBytes(), settings.nodeIdleTimeout(), sessions, secured.nodeTls(),
                            settings.nodeConnectionsPerAddress()));
            opened.add(nodeEndpoint, nodeEndpoint::close);
        } else {
            role.nodeHost().accept(sessions);
            opened.add(sessions, () -> role.nodeHost().accept(null));
        }
        Authenticator handler = new Authenticator(secured.tokens(), secured.audit(), clock,
                new Api(loop, journal, writeAhead, clock, reloader, metrics, numbers, addresses, secured.audit(),
                        secured.nodeToken(), role::health, recovered.ledger(), arrival, recovered.events(),
                        new Cadence(settings.heartbeatPeriod(), settings.fairShareUpdatePeriod())));
        ApiServer apiServer = null;
        if (role.apiHost() == null) {
            apiServer = Listening.on("the API", settings.bindAddress(), settings.httpPort(), "--http-port",
                    () -> ApiServer.start(boss, workers, settings.bindAddress(), settings.httpPort(), handler,
                            secured.httpTls(), settings.httpLimits()));
            opened.add(apiServer, apiServer::close);
        } else {
            role.apiHost().accept(handler);
            opened.add(handler, () -> role.apiHost().accept(null));
        }
        reloader.watch();
        Compaction compaction = new Compaction(journal, loop, writeAhead, recovered.ledger(), clock,
                settings.compactAfterRecords());
        DaemonTimers timers = new DaemonTimers(settings, clock, loop, journal, metrics, recovered.ledger(), arrival,
                compaction);
        SchedulerDaemon daemon = new SchedulerDaemon(settings, clock, journal, loop, metrics, reloader, boss, workers,
                nodeLoops, nodeEndpoint, apiServer, timers, compaction, secured.audit(), role, recovered.ledger());
        timers.start();
        LOG.info("scheduler started: nodes on {}:{}, API on http://{}:{}; revived {} operations with {} running jobs; "
                + "network over {}", settings.bindAddress(), daemon.nodePort(), settings.bindAddress(), daemon.httpPort(),
                recovered.revived().operations(), recovered.revived().runningJobs(),
                Transport.epoll() ? "epoll" : "NIO (epoll: " + Transport.unavailability() + ")");
        return daemon;
    }

    /** Runs a fair-share update now (one at a time; see {@link DaemonTimers#updateFairShare}). */
    public void updateFairShare() {
        timers.updateFairShare();
    }

    /** Applies node liveness now: offline after the heartbeat timeout, jobs aborted after the registration timeout. */
    public void checkNodes() {
        timers.checkNodes();
    }

    static boolean isLoopback(String address) {
        try {
            return InetAddress.getByName(address).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    public int nodePort() {
        return nodes != null ? nodes.port() : settings.nodePort();
    }

    /** How many times a node connection was not read because its peer did not read its replies. */
    public long nodeConnectionsHeldBack() {
        return nodes != null ? nodes.heldBack() : 0;
    }

    public int httpPort() {
        return api != null ? api.port() : settings.httpPort();
    }

    /** Stops accepting, saves a snapshot of the state, and stops. */
    @Override
    public void close() {
        close(true);
    }

    /**
     * Stops at once, without a final snapshot: a leader that lost its lease stops scheduling and
     * answering nodes and writes nothing more.
     */
    public void stepDown() {
        close(false);
    }

    private void close(boolean snapshot) {
        timers.close();
        reloader.close();
        if (nodes != null) {
            nodes.close();
        } else if (role.nodeHost() != null) {
            role.nodeHost().accept(null);
        }
        if (api != null) {
            api.close();
        } else if (role.apiHost() != null) {
            role.apiHost().accept(null);
        }
        try {
            if (snapshot) {
                compaction.finalSnapshot().get(10, TimeUnit.SECONDS);
            }
        } catch (Exception e) {
            LOG.warn("final snapshot not taken ({}); the journal has everything anyway", e.toString());
        }
        if (ledger != null) {
            ledger.close(Duration.ofSeconds(5));
        }
        loop.close();
        journal.close();
        metrics.close();
        try {
            audit.close();
        } catch (IOException e) {
            LOG.warn("closing the audit log: {}", e.getMessage());
        }
        boss.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        workers.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        nodeLoops.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        LOG.info("scheduler stopped");
    }

    /** The daemon could not start. */
    public static final class DaemonException extends Exception {
        public DaemonException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
