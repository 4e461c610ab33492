package io.grove.agent;

import io.grove.agent.gpu.GpuCheck;
import io.grove.agent.gpu.NodeGpus;
import io.grove.agent.image.NodeImages;
import io.grove.agent.job.JobCgroups;
import io.grove.agent.job.JobFirewall;
import io.grove.agent.job.JobRunner;
import io.grove.agent.job.JobUsers;
import io.grove.agent.job.ProcTable;
import io.grove.agent.job.WorkDir;
import io.grove.agent.metrics.AgentMetrics;
import io.grove.agent.net.BrokerEndpoint;
import io.grove.agent.net.BrokerTokens;
import io.grove.api.AgentNodeView;
import io.grove.core.resource.ResourceType;
import io.grove.core.resource.Resources;
import io.grove.http.ApiServer;
import io.grove.http.DaemonThreads;
import io.grove.http.HttpLimits;
import io.grove.protocol.ErrorCode;
import io.grove.protocol.ErrorReply;
import io.grove.protocol.Handshake;
import io.grove.protocol.HeartbeatReply;
import io.grove.protocol.Message;
import io.grove.protocol.NodeClient;
import io.grove.protocol.Welcome;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.handler.ssl.SslContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running agent: one thread owns the {@link Agent}; it connects to the scheduler, shakes
 * hands, heartbeats at the period the scheduler asks for (with jitter, and early when a job ends),
 * and reconnects with exponential backoff and jitter when the scheduler is unreachable, while the
 * jobs keep running. Around it: the HTTP endpoint and the broker's loopback endpoint.
 */
public final class AgentDaemon implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(AgentDaemon.class);
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    private static final long LOG_EXPIRY_PERIOD_MS = 600_000;


    private final AgentSettings settings;
    private final ScheduledExecutorService loop;
    private final ScheduledExecutorService connector;
    private final NioEventLoopGroup network;
    private final Agent agent;
    private final AgentMetrics metrics;
    private final ApiServer http;
    private final BrokerEndpoint brokerEndpoint;
    private final Random random = new Random();
    private final String address;
    private final InstantSource clock = InstantSource.system();

    private final SslContext tls;
    /** The node's tags: as given, and those of its GPUs' models. */
    private final List<String> tags;
    private final ExecutorService gpuChecks;
    private final NodeImages images;
    /** What the machine lets the agent do: cgroups, mount namespaces, GPUs. */
    private final NodeSetup setup;
    private NodeSampling sampling;
    private final JobCgroups cgroups;
    private NodeClient client;
    private boolean connected;
    private boolean heartbeatInFlight;
    private boolean heartbeatAgain;
    private ScheduledFuture<?> nextBeat;
    private long periodMs = 1000;
    private int failures;
    /** Which of the schedulers to try next (a high-availability group has several). */
    private volatile int schedulerIndex;
    private volatile boolean closed;
    private volatile CompletableFuture<Void> firstWelcome = new CompletableFuture<>();
    /** The nftables table that keeps jobs off the control plane, or {@code null} (not root, turned off, no nft). */
    private volatile JobFirewall firewall;

    private AgentDaemon(AgentSettings settings, String nodeId, JobRunner runner) throws IOException, InterruptedException {
        this.settings = settings;
        this.loop = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("grove-agent"));
        this.connector = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("grove-agent-connect"));
        this.network = new NioEventLoopGroup(1, DaemonThreads.named("grove-agent-net"));
        this.metrics = new AgentMetrics();
        this.gpuChecks = Executors.newSingleThreadExecutor(DaemonThreads.named("grove-agent-gpu-check"));
        this.tls = settings.tls() == null ? null : settings.tls().client();
        JobUsers jobUsers = JobUsers.forAgent(settings.jobUsers(),
                settings.jobUids(), JobUsers.processIsRoot(), Path.of("/etc/passwd"));
        WorkDir workDir = new WorkDir(settings.workDir(), jobUsers.switching());
        jobUsers.leasingIn(JobUsers.LEASES, settings.workDir().toAbsolutePath().normalize().toString(), workDir::hasFiles);
        LOG.info("jobs run as {}", jobUsers.describe());
        this.setup = NodeSetup.of(settings, jobUsers, workDir);
        this.cgroups = setup.cgroups();
        this.tags = setup.tags();
        if (workDir.separateSandboxes() != null) {
            LOG.info("the work directory is closed to job users, so sandboxes are in {}", workDir.separateSandboxes());
        }
        NodeGpus gpus = new NodeGpus(setup.gpus(), workDir.root());
        Resources offered = settings.resources().with(ResourceType.GPU, gpus.all().size());
        if (jobUsers.exclusive() && offered.userSlots() > jobUsers.users().size()) {
            LOG.warn("{} user slots but only {} job uids: the node offers {} slots", (long) offered.userSlots(),
                    jobUsers.users().size(), jobUsers.users().size());
            offered = offered.with(ResourceType.USER_SLOTS, jobUsers.users().size());
        }
        this.images = NodeImages.start(settings.images(), settings.workDir(), JobUsers.processIsRoot());
        metrics.images(images);
        BrokerEndpoint[] endpoint = new BrokerEndpoint[1];
        this.agent = new Agent(new AgentParts(nodeId, offered, settings.brokerReserve(),
                settings.brokerConfig(), workDir, runner, ProcTable.system(), clock,
                (delay, task) -> onLoopLater(task, delay),
                this::heartbeatSoon, (client, event) -> {
                    if (endpoint[0] != null) {
                        endpoint[0].deliver(client, event);
                    }
                }, metrics, settings.logRetention().toMillis(), jobUsers, cgroups, setup.policy(), gpus,
                new GpuCheck(settings.gpus().check(), settings.gpus().checkTimeout().toMillis(), gpuChecks), images));
        AgentRoutes routes = new AgentRoutes(settings.nodeToken(), workDir, metrics, () -> onLoop(() -> agent.broker().status(clock.millis())),
                () -> onLoop(this::nodeView));
        this.http = ApiServer.start(network, network, settings.bindHost(), settings.httpPort(), routes, null,
                HttpLimits.AGENT);
        this.brokerEndpoint = settings.brokerPort() < 0 ? null
                : BrokerEndpoint.start(network, settings.brokerBind(), settings.brokerPort(), agent, loop, clock,
                        BrokerTokens.inDirectory(settings.workDir()));
        endpoint[0] = brokerEndpoint;
        String host = settings.advertisedHost() != null ? settings.advertisedHost()
                : settings.bindHost().equals("0.0.0.0") ? InetAddress.getLocalHost().getHostName()
                : settings.bindHost();
        this.address = host + ":" + http.port();
    }

    /**
     * Starts an agent: recovers the work directory (jobs of a previous run are killed and reported),
     * opens its endpoints and starts connecting to the scheduler.
     */
    public static AgentDaemon start(AgentSettings settings, JobRunner runner) throws IOException, InterruptedException {
        String nodeId = NodeIdentity.resolve(settings.nodeId(), settings.workDir());
        AgentDaemon daemon = new AgentDaemon(settings, nodeId, runner);
        try {
            // before any job: the control plane closed to the job uids (an agent that cannot close it does not start)
            daemon.firewall = JobFirewall.forJobs(daemon.agent.jobUsers(), settings.jobNetwork(), settings.schedulers(),
                    daemon.brokerEndpoint == null ? List.of(daemon.http.port())
                            : List.of(daemon.http.port(), daemon.brokerEndpoint.port()), settings.workDir());
        } catch (IOException | RuntimeException e) {
            daemon.close();
            throw e;
        }
        try {
            daemon.onLoop(() -> {
                try {
                    return daemon.agent.recover();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).join();
        } catch (RuntimeException e) {
            daemon.close();
            throw new IOException("cannot recover the work directory " + settings.workDir() + ": " + e.getMessage(), e);
        }
        daemon.loop.scheduleWithFixedDelay(() -> daemon.guarded(daemon::sample),
                settings.memorySampleInterval().toMillis(), settings.memorySampleInterval().toMillis(), TimeUnit.MILLISECONDS);
        daemon.loop.scheduleWithFixedDelay(() -> daemon.guarded(daemon.agent::expireLogs), 0, LOG_EXPIRY_PERIOD_MS,
                TimeUnit.MILLISECONDS);
        daemon.sampling = new NodeSampling(daemon.agent, daemon::onLoop, DaemonThreads.named("grove-agent-sampling"),
                daemon.setup.gpusFound() ? settings.gpus().nvidiaSmi() : null, daemon.setup.gpus());
        daemon.loop.execute(() -> daemon.publish());
        daemon.connect();
        LOG.info("agent {} started: scheduler {}:{}, resources {}, http {}, broker port {}", nodeId,
                settings.schedulerHost(), settings.schedulerPort(), settings.resources(), daemon.address,
                daemon.brokerPort());
        return daemon;
    }

    public String nodeId() {
        return agent.nodeId();
    }

    public int httpPort() {
        return http.port();
    }

    public int brokerPort() {
        return brokerEndpoint == null ? -1 : brokerEndpoint.port();
    }

    /** The broker API's tokens (in the work directory), for tools on the node. */
    public BrokerTokens brokerTokens() throws IOException {
        return BrokerTokens.inDirectory(settings.workDir());
    }

    public AgentMetrics metrics() {
        return metrics;
    }

    /** Completes when the scheduler has welcomed the agent (again after each reconnect). */
    public CompletableFuture<Void> welcomed() {
        return firstWelcome;
    }

    /** Runs something on the agent's thread. */
    public <T> CompletableFuture<T> onLoop(Supplier<T> work) {
        return CompletableFuture.supplyAsync(work, loop);
    }

    // ---------------------------------------------------------------- connection

    private void connect() {
        if (closed) {
            return;
        }
        connector.execute(() -> {
            try {
                String target = settings.schedulers().get(schedulerIndex);
                int colon = target.lastIndexOf(':');
                NodeClient c = NodeClient.connect(network, target.substring(0, colon),
                        Integer.parseInt(target.substring(colon + 1)), CONNECT_TIMEOUT, Message.DEFAULT_MAX_FRAME_BYTES, tls);
                loop.execute(() -> guarded(() -> handshake(c)));
            } catch (IOException e) {
                loop.execute(() -> guarded(() -> retryLater(e.getMessage())));
            }
        });
    }

    private void handshake(NodeClient c) {
        if (closed) {
            c.close();
            return;
        }
        client = c;
        // the scheduler has work this node has room for: heartbeat now, not at the period
        c.onPush(message -> heartbeatSoon());
        Handshake handshake = new Handshake(Message.VERSION, agent.nodeId(), address, tags, agent.offered(),
                agent.runningJobs(), settings.nodeToken(), agent.handshakeResults(), images.runtime(), images.why(),
                settings.topology().domains());
        c.request(handshake, settings.requestTimeout()).whenComplete((reply, error) -> loop.execute(() -> guarded(() -> {
            if (client != c) {
                return;
            }
            if (error != null) {
                agent.heartbeatLost();
                disconnect("the handshake failed: " + failure(error));
            } else if (reply instanceof Welcome welcome) {
                agent.welcomed(welcome.protocolVersion());
                connected = true;
                periodMs = Math.max(10, welcome.heartbeatPeriodMs());
                if (failures > 0) {
                    LOG.info("connected to the scheduler again after {} failed attempt(s)", failures);
                }
                failures = 0;
                LOG.info("welcomed by the scheduler as {}; heartbeat every {} ms", welcome.nodeId(), periodMs);
                firstWelcome.complete(null);
                beat();
            } else if (reply instanceof ErrorReply refused) {
                agent.heartbeatLost();
                if (refused.code() == ErrorCode.NOT_LEADER) {
                    followLeader(refused.leader());
                }
                disconnect("the scheduler refused the handshake: " + refused.code() + ": " + refused.message());
            } else {
                agent.heartbeatLost();
                disconnect("unexpected answer to the handshake: " + reply);
            }
        })));
    }

    private void beat() {
        if (!connected || closed) {
            return;
        }
        if (heartbeatInFlight) {
            heartbeatAgain = true;
            return;
        }
        if (nextBeat != null) {
            nextBeat.cancel(false);
            nextBeat = null;
        }
        NodeClient c = client;
        heartbeatInFlight = true;
        heartbeatAgain = false;
        long sent = System.nanoTime();
        c.request(agent.heartbeat(), settings.requestTimeout()).whenComplete((reply, error) -> loop.execute(() -> guarded(() -> {
            if (client != c) {
                return;
            }
            heartbeatInFlight = false;
            if (error != null) {
                agent.heartbeatLost();
                disconnect("heartbeat failed: " + failure(error));
                return;
            }
            metrics.heartbeat(Duration.ofNanos(System.nanoTime() - sent));
            long next = periodMs;
            if (reply instanceof HeartbeatReply answer) {
                agent.reply(answer);
                next = answer.nextHeartbeatMs() > 0 ? answer.nextHeartbeatMs() : periodMs;
            } else {
                agent.heartbeatLost();
                if (reply instanceof ErrorReply refused) {
                    LOG.warn("the scheduler refused a heartbeat: {}: {}", refused.code(), refused.message());
                    if (refused.fatal()) {
                        disconnect("fatal error from the scheduler");
                        return;
                    }
                }
            }
            publish();
            if (heartbeatAgain) {
                beat();
            } else {
                long jittered = (long) (next * (0.9 + 0.2 * random.nextDouble()));
                nextBeat = loop.schedule(() -> guarded(this::beat), jittered, TimeUnit.MILLISECONDS);
            }
        })));
    }

    /** A job ended: report it now rather than at the next period. */
    private void heartbeatSoon() {
        if (connected) {
            onLoopLater(this::beat, 0);
        }
    }

    /** Runs a task on the agent's thread after a delay; nothing runs once the agent is stopping. */
    private void onLoopLater(Runnable task, long delayMs) {
        if (closed) {
            return;
        }
        try {
            loop.schedule(() -> guarded(task), delayMs, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            LOG.debug("agent stopping; dropped a task");
        }
    }

    private void disconnect(String why) {
        if (client != null) {
            client.close();
            client = null;
        }
        if (nextBeat != null) {
            nextBeat.cancel(false);
            nextBeat = null;
        }
        if (connected) {
            firstWelcome = new CompletableFuture<>();
        }
        connected = false;
        heartbeatInFlight = false;
        retryLater(why);
    }

    /**
     * A standby named the leader: if it is one of the schedulers this agent was given, that one is
     * tried next (the index moves on by one at the retry, so it is set just before it).
     */
    private void followLeader(String leader) {
        List<String> schedulers = settings.schedulers();
        int at = leader == null ? -1 : schedulers.indexOf(leader);
        if (at >= 0) {
            schedulerIndex = (at - 1 + schedulers.size()) % schedulers.size();
        }
    }

    /** Waits a random time up to {@code base * 2^failures} (at most the maximum), then reconnects. */
    private void retryLater(String why) {
        if (closed) {
            return;
        }
        // the backoff grows with every round over the schedulers, not with every one of them
        long ceiling = Math.min(settings.backoffMax().toMillis(),
                settings.backoffBase().toMillis() << Math.min(20, failures / settings.schedulers().size()));
        long delay = Math.max(10, (long) (ceiling * random.nextDouble()));
        failures++;
        String tried = settings.schedulers().get(schedulerIndex);
        // in a high-availability group only the leader takes nodes: try the next scheduler
        schedulerIndex = (schedulerIndex + 1) % settings.schedulers().size();
        LOG.warn("scheduler {} unreachable ({}); retry {} in {} ms{}; {} job(s) keep running", tried, why, failures, delay,
                settings.schedulers().size() > 1 ? " at " + settings.schedulers().get(schedulerIndex) : "",
                agent.jobCount());
        connector.schedule(this::connect, delay, TimeUnit.MILLISECONDS);
    }

    // ---------------------------------------------------------------- periodic work

    private void sample() {
        agent.sample();
        publish();
    }

    private void publish() {
        metrics.publish(agent.broker().status(clock.millis()));
    }

    private AgentNodeView nodeView() {
        return new AgentNodeView(agent.nodeId(), address, settings.schedulers().get(schedulerIndex),
                connected, String.join(",", tags), agent.node().toString(), agent.ledger().offered().toString(),
                agent.ledger().declared().toString(), agent.jobCount(), agent.pendingResults(),
                agent.jobUsers().switching() ? agent.jobUsers().describe() : "the agent's own user (it does not run as root)",
                "resident memory sampled every " + settings.memorySampleInterval().toMillis() + " ms");
    }

    /** What went wrong with a request, in words: a timeout says how long it waited. */
    private String failure(Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null
                ? error.getCause() : error;
        if (cause instanceof TimeoutException) {
            return "no answer within " + settings.requestTimeout().toMillis() + " ms";
        }
        return cause.getMessage() != null ? cause.getMessage() : cause.getClass().getSimpleName();
    }

    private void guarded(Runnable work) {
        try {
            work.run();
        } catch (RuntimeException e) {
            LOG.error("agent task failed", e);
        }
    }

    /** Stops the agent: jobs are killed (their results kept for the next run), endpoints closed. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            loop.submit(() -> {
                agent.killAll();
                if (client != null) {
                    client.close();
                }
            }).get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            LOG.warn("stopping jobs: {}", e.toString());
        }
        http.close();
        if (brokerEndpoint != null) {
            brokerEndpoint.close();
        }
        if (firewall != null) {
            firewall.close();
        }
        connector.shutdownNow();
        if (sampling != null) {
            sampling.close();
        }
        gpuChecks.shutdownNow();
        images.close();
        loop.shutdown();
        try {
            loop.awaitTermination(5, TimeUnit.SECONDS);
            cgroups.removeAll();
            agent.jobUsers().closeLeases();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        network.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        metrics.close();
    }
}
