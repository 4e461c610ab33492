package io.grove.server.net;

import io.grove.core.node.NodeCondition;
import io.grove.core.node.NodeTopology;
import io.grove.core.schedule.Decision;
import io.grove.core.schedule.Heartbeat;
import io.grove.http.ConnectionLimiter;
import io.grove.http.Futures;
import io.grove.http.Secrets;
import io.grove.protocol.Checks;
import io.grove.protocol.DecodeFailure;
import io.grove.protocol.ErrorCode;
import io.grove.protocol.ErrorReply;
import io.grove.protocol.Handshake;
import io.grove.protocol.Message;
import io.grove.protocol.NodeHeartbeat;
import io.grove.protocol.Welcome;
import io.grove.server.Clock;
import io.grove.server.loop.SchedulerLoop;
import io.grove.server.metrics.SchedulerMetrics;
import io.grove.server.security.AuditLog;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.timeout.IdleStateEvent;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One node connection. A handshake registers the node (with the jobs it still runs); heartbeats
 * then go to the scheduler loop as report → decide → apply, batched with the others waiting
 * ({@link HeartbeatBatcher}), and the decision goes back as the reply. The handler never blocks: replies are written when the loop's future completes. Bad
 * frames get typed errors; a wrong protocol version or an oversized frame closes the connection.
 */
public final class NodeSession extends SimpleChannelInboundHandler<Object> {

    private static final Logger LOG = LoggerFactory.getLogger(NodeSession.class);

    private final SchedulerLoop loop;
    private final HeartbeatBatcher batcher;
    private final Clock clock;
    private final Duration heartbeatPeriod;
    /**
     * A connection of a node silent this long (the node heartbeat timeout: the node is offline)
     * gives its id up to a new handshake: after a partition the node comes back on a new connection
     * while the old one may stay open here until the idle timeout.
     */
    private final Duration silentAfter;
    private final SchedulerMetrics metrics;
    /**
     * When a frame last came on this connection, epoch ms ({@link Long#MIN_VALUE}: none yet). A
     * number, not an {@code Instant}: a new young object stored into this old one on every frame
     * would cost the collector a card to refine each time.
     */
    private volatile long lastHeardMs = Long.MIN_VALUE;
    /**
     * A version 2 node is asked for its full running list every this many heartbeats (a minute at
     * the default period), so a job the node lost without saying so is found within that time.
     */
    static final int RESYNC_EVERY = 60;

    private String nodeId;
    private int version;
    private int sinceFullList;
    private Set<String> tags = Set.of();
    /** Where the node sits in the network, as its handshake said; carried into every heartbeat. */
    private NodeTopology topology = NodeTopology.NONE;
    /** The address the connection comes from: where a gang's other ranks reach this node's. */
    private String peerHost;
    /** Why the node runs no image jobs, from its handshake; {@code null} when it runs them. */
    private String noImages;

    private final NodeAddresses addresses;

    private final String nodeToken;
    private final AuditLog audit;

    /**
     * @param nodeToken the cluster's node token, or {@code null} when nodes join without one
     */
    public NodeSession(SchedulerLoop loop, HeartbeatBatcher batcher, Clock clock, Duration heartbeatPeriod,
            Duration silentAfter, SchedulerMetrics metrics, NodeAddresses addresses, String nodeToken, AuditLog audit) {
        this.silentAfter = silentAfter;
        this.batcher = batcher;
        this.nodeToken = nodeToken;
        this.audit = audit;
        this.addresses = addresses;
        this.loop = loop;
        this.clock = clock;
        this.heartbeatPeriod = heartbeatPeriod;
        this.metrics = metrics;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, Object message) {
        lastHeardMs = clock.now().toEpochMilli();
        if (message instanceof DecodeFailure failure) {
            LOG.warn("node {} from {}: bad frame refused: {}", nodeId == null ? "(no handshake yet)" : nodeId,
                    ctx.channel().remoteAddress(), Checks.printable(failure.reply().message(), 300));
            ctx.writeAndFlush(failure.reply());
        } else if (message instanceof Handshake handshake) {
            handshake(ctx, handshake);
        } else if (message instanceof NodeHeartbeat heartbeat) {
            heartbeat(ctx, heartbeat);
        } else if (message instanceof Message other) {
            ctx.writeAndFlush(new ErrorReply(ErrorCode.INVALID_MESSAGE, "a node may send 'handshake' and 'heartbeat', not "
                    + other.getClass().getSimpleName(), false));
        }
    }

    private void handshake(ChannelHandlerContext ctx, Handshake handshake) {
        if (handshake.protocolVersion() < Message.MIN_VERSION || handshake.protocolVersion() > Message.VERSION) {
            ctx.writeAndFlush(new ErrorReply(ErrorCode.UNSUPPORTED_PROTOCOL_VERSION, "protocol version "
                    + handshake.protocolVersion() + " is not supported (expected: " + Message.MIN_VERSION + " to "
                    + Message.VERSION + ")", true))
                    .addListener(ChannelFutureListener.CLOSE);
            return;
        }
        if (nodeToken != null && !Secrets.equal(nodeToken, handshake.nodeToken())) {
            String why = handshake.nodeToken() == null ? "no node token" : "a wrong node token";
            LOG.warn("node {} from {} refused: {}", handshake.nodeId(), ctx.channel().remoteAddress(), why);
            if (audit != null) {
                audit.record(clock.now(), "node:" + handshake.nodeId(), String.valueOf(ctx.channel().remoteAddress()),
                        "node handshake", handshake.nodeId(), "refused", why);
            }
            ctx.writeAndFlush(new ErrorReply(ErrorCode.NODE_REFUSED, "node " + handshake.nodeId() + " refused: " + why
                    + "; start the agent with --node-token-file holding the cluster's node token", true))
                    .addListener(ChannelFutureListener.CLOSE);
            return;
        }
        if (nodeId != null && !nodeId.equals(handshake.nodeId())) {
            ctx.writeAndFlush(new ErrorReply(ErrorCode.HANDSHAKE_REQUIRED, "this connection belongs to node " + nodeId
                    + "; a node id is for the whole connection", true)).addListener(ChannelFutureListener.CLOSE);
            return;
        }
        Instant now = clock.now();
        Object holder = addresses.claim(handshake.nodeId(), ctx.channel(),
                other -> other instanceof Channel channel && channel.isActive() && !silent(channel, now),
                displaced -> displace(ctx, handshake.nodeId(), (Channel) displaced, now));
        if (holder != null) {
            String why = "node id " + handshake.nodeId() + " is in use by a live connection from "
                    + ((Channel) holder).remoteAddress();
            LOG.warn("node connection from {} refused: {}", ctx.channel().remoteAddress(), why);
            if (audit != null) {
                audit.record(clock.now(), "node:" + handshake.nodeId(), String.valueOf(ctx.channel().remoteAddress()),
                        "node handshake", handshake.nodeId(), "refused", why);
            }
            ctx.writeAndFlush(new ErrorReply(ErrorCode.NODE_ID_IN_USE, why + "; two agents with one id? (the id is "
                    + "kept in the agent's work directory, or given with --node-id)", true))
                    .addListener(ChannelFutureListener.CLOSE);
            return;
        }
        nodeId = handshake.nodeId();
        version = handshake.protocolVersion();
        tags = Set.copyOf(handshake.tags());
        topology = handshake.where();
        noImages = handshake.whyNoImages();
        InetAddress peer = ctx.channel().remoteAddress() instanceof InetSocketAddress socket ? socket.getAddress() : null;
        peerHost = peer == null ? null : peer.getHostAddress();
        String previous = addresses.put(nodeId, handshake.address(), peer);
        if (previous != null && !previous.equals(handshake.address()) && audit != null) {
            audit.record(clock.now(), "node:" + nodeId, String.valueOf(ctx.channel().remoteAddress()), "node address",
                    nodeId, "allowed", "address changed from " + previous + " to " + handshake.address());
        }
        Heartbeat registration = new Heartbeat(nodeId, tags, handshake.resourceLimits(), null,
                Wire.running(handshake.runningJobs()), Wire.finished(handshake.finishedJobs()), false,
                new NodeCondition(-1, null, List.of(), noImages), List.of(), List.of(), topology, peerHost);
        loop.call(cluster -> {
            cluster.report(registration, clock.now());
            return cluster.node(nodeId).treeProblem();
        }).whenComplete((problem, error) -> {
            if (error != null) {
                fail(ctx, error);
                return;
            }
            if (problem != null) {
                LOG.warn("node {} registered without a tree: {}", nodeId, problem);
            } else {
                LOG.info("node {} registered from {} with tags {} and {} running jobs", nodeId, ctx.channel().remoteAddress(),
                        tags, handshake.runningJobs().size());
            }
            // a node that shook hands is not shed to make room for connections that have not
            ConnectionLimiter.trust(ctx.channel());
            ctx.writeAndFlush(new Welcome(version, nodeId, heartbeatPeriod.toMillis()));
            if (version >= Message.HEARTBEAT_NOW_VERSION) {
                addresses.nudgeable(nodeId, ctx.channel());
            }
        });
    }

    /** Whether a node's other connection has carried nothing for the node heartbeat timeout. */
    private boolean silent(Channel channel, Instant now) {
        return silentMillis(channel, now) >= silentAfter.toMillis();
    }

    /** How long a connection has carried nothing, ms; -1 when it has carried nothing yet (or is no session). */
    private static long silentMillis(Channel channel, Instant now) {
        NodeSession session = channel.pipeline().get(NodeSession.class);
        long heard = session == null ? Long.MIN_VALUE : session.lastHeardMs;
        return heard == Long.MIN_VALUE ? -1 : now.toEpochMilli() - heard;
    }

    /** A new handshake took the id from a connection gone silent: that one is closed, and said so. */
    private void displace(ChannelHandlerContext ctx, String id, Channel old, Instant now) {
        if (!old.isActive()) {
            return;
        }
        String why = "its connection from " + old.remoteAddress() + " was silent for "
                + Math.max(0, silentMillis(old, now)) / 1000 + " s; the one from " + ctx.channel().remoteAddress() + " takes it over";
        LOG.info("node {}: {}", id, why);
        if (audit != null) {
            audit.record(now, "node:" + id, String.valueOf(ctx.channel().remoteAddress()), "node handshake", id,
                    "allowed", why);
        }
        old.close();
    }

    private void heartbeat(ChannelHandlerContext ctx, NodeHeartbeat message) {
        if (nodeId == null || !nodeId.equals(message.nodeId())) {
            ctx.writeAndFlush(new ErrorReply(ErrorCode.HANDSHAKE_REQUIRED, nodeId == null
                    ? "send a handshake before heartbeats" : "this connection belongs to node " + nodeId
                    + ", not " + message.nodeId(), false));
            return;
        }
        if (message.deltaOnly() && version < 2) {
            ctx.writeAndFlush(new ErrorReply(ErrorCode.INVALID_MESSAGE, "a delta heartbeat needs protocol version 2; "
                    + "this connection shook hands with version " + version, false));
            return;
        }
        long started = System.nanoTime();
        Heartbeat heartbeat = Wire.heartbeat(nodeId, tags, message, noImages, topology, peerHost);
        Boolean resync = version < 2 ? null : ++sinceFullList >= RESYNC_EVERY ? Boolean.TRUE : null;
        if (!message.deltaOnly()) {
            sinceFullList = 0;
        }
        batcher.submit(ctx.executor(), heartbeat, decision -> {
            metrics.heartbeat(decision, System.nanoTime() - started);
            logPreemptions(decision);
            ctx.writeAndFlush(Wire.reply(decision, heartbeatPeriod.toMillis(), resync));
        }, error -> fail(ctx, error));
    }

    private void logPreemptions(Decision decision) {
        for (Decision.JobPreemption preemption : decision.preemptions()) {
            LOG.info("preempt job {} of {} on {} ({}): {}", preemption.jobId(), preemption.operationId(),
                    decision.nodeId(), Wire.key(preemption.reason()), preemption.message());
        }
    }

    private void fail(ChannelHandlerContext ctx, Throwable error) {
        Throwable cause = Futures.cause(error);
        if (cause instanceof HeartbeatBatcher.NodeLost) {
            // its connection is over: the node shakes hands again, with everything it still runs
            LOG.info("node {} from {}: {}", nodeId, ctx.channel().remoteAddress(), cause.getMessage());
            ctx.writeAndFlush(new ErrorReply(ErrorCode.HANDSHAKE_REQUIRED, cause.getMessage(), true))
                    .addListener(ChannelFutureListener.CLOSE);
            return;
        }
        if (cause instanceof HeartbeatBatcher.NotLeading) {
            // a leader whose lease lapsed answers nothing more: the node goes to the group's leader
            ctx.writeAndFlush(new ErrorReply(ErrorCode.NOT_LEADER, cause.getMessage(), true, null))
                    .addListener(ChannelFutureListener.CLOSE);
            return;
        }
        LOG.error("node {}: request failed", nodeId, cause);
        ctx.writeAndFlush(new ErrorReply(ErrorCode.INTERNAL, String.valueOf(cause.getMessage()), false));
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
        if (event instanceof IdleStateEvent) {
            LOG.info("node {}: connection idle, closing", nodeId);
            ctx.close();
        } else {
            super.userEventTriggered(ctx, event);
        }
    }

    /** A connection must complete its handshake this soon, however it trickles bytes. */
    static final long HANDSHAKE_DEADLINE_MS = 30_000;

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        ctx.executor().schedule(() -> {
            if (nodeId == null && ctx.channel().isActive()) {
                LOG.info("node connection from {}: no handshake within {} s, closing", ctx.channel().remoteAddress(),
                        HANDSHAKE_DEADLINE_MS / 1000);
                ctx.close();
            }
        }, HANDSHAKE_DEADLINE_MS, TimeUnit.MILLISECONDS);
        super.channelActive(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (nodeId != null) {
            addresses.release(nodeId, ctx.channel());
        }
        super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.debug("node {}: connection error: {}", nodeId, cause.toString());
        ctx.close();
    }
}
