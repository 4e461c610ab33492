package io.grove.agent.net;

import io.grove.agent.Agent;
import io.grove.agent.broker.BrokerEvent;
import io.grove.agent.broker.ResourceBroker;
import io.grove.http.ConnectionLimiter;
import io.grove.protocol.DecodeFailure;
import io.grove.protocol.FrameCodec;
import io.grove.protocol.broker.BrokerMessage;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import java.net.InetSocketAddress;
import java.time.InstantSource;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's loopback API: the framed protocol on a local port. A connection is served once its
 * first message, a hello, holds the node's client or admin token ({@link BrokerTokens}); only the
 * admin token may configure. Each connection is one client ({@code local-N}); its messages are applied on the agent's thread, allocations and errors are
 * pushed back, and closing the connection drops its tasks (the seed's "client died"). Any job
 * can reach the port, so it is bounded: {@value #MAX_CONNECTIONS} connections (all from loopback,
 * so no cap per address; at the cap a new one sheds the oldest that has not said hello and is older
 * than {@value #HELLO_GRACE_MS} ms, else it is refused), a hello within {@value #HELLO_DEADLINE_MS} ms, and a
 * client that does not read what it is sent is closed once {@value #MAX_UNREAD_BYTES} bytes wait.
 */
public final class BrokerEndpoint implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(BrokerEndpoint.class);
    static final int MAX_FRAME_BYTES = 1024 * 1024;
    static final int MAX_CONNECTIONS = 256;
    /** A connection must say hello with a token this soon, or it is closed. */
    static final long HELLO_DEADLINE_MS = 10_000;
    /** A connection this young is never shed for a newer one: a client has that long to say hello. */
    static final long HELLO_GRACE_MS = 2_000;
    /** What a client may leave unread before it is closed (its tasks dropped, as if it died). */
    static final int MAX_UNREAD_BYTES = 4 << 20;

    private final Channel server;
    private final Map<String, Channel> clients;

    private BrokerEndpoint(Channel server, Map<String, Channel> clients) {
        this.server = server;
        this.clients = clients;
    }

    /**
     * Listens on loopback.
     *
     * @param loop the agent's thread, where the broker is used
     */
    public static BrokerEndpoint start(EventLoopGroup group, int port, Agent agent, Executor loop, InstantSource clock,
            BrokerTokens tokens) throws InterruptedException {
        return start(group, "127.0.0.1", port, agent, loop, clock, tokens);
    }

    /** Listens on {@code host} (loopback unless configured otherwise); a connection is served once its hello holds a token. */
    public static BrokerEndpoint start(EventLoopGroup group, String host, int port, Agent agent, Executor loop,
            InstantSource clock, BrokerTokens tokens) throws InterruptedException {
        Map<String, Channel> clients = new ConcurrentHashMap<>();
        AtomicLong sequence = new AtomicLong();
        ConnectionLimiter connections = new ConnectionLimiter("broker " + host + ":" + port,
                MAX_CONNECTIONS, Integer.MAX_VALUE, TimeUnit.MILLISECONDS.toNanos(HELLO_GRACE_MS),
                () -> TimeUnit.MILLISECONDS.toNanos(clock.millis()));
        Channel channel = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast("connections", connections);
                        FrameCodec.install(ch.pipeline(), MAX_FRAME_BYTES, BrokerMessage.class,
                                text -> new BrokerMessage.BrokerError("frame_too_large", text, true));
                        String name = "local-" + sequence.incrementAndGet();
                        ch.pipeline().addLast("broker", new Session(name, agent, loop, clock, clients, tokens));
                    }
                }).bind(host, port).sync().channel();
        return new BrokerEndpoint(channel, clients);
    }

    public int port() {
        return ((InetSocketAddress) server.localAddress()).getPort();
    }

    /** Delivers a broker event to its client, if it is connected. */
    public void deliver(String client, BrokerEvent event) {
        Channel channel = clients.get(client);
        BrokerMessage message = BrokerWire.toClient(event);
        if (channel != null && message != null) {
            if (!channel.isWritable() && channel.bytesBeforeWritable() > MAX_UNREAD_BYTES) {
                LOG.warn("broker client {} leaves more than {} bytes unread: closing it, its tasks are dropped", client,
                        MAX_UNREAD_BYTES);
                channel.close();
                return;
            }
            channel.writeAndFlush(message);
        }
    }

    @Override
    public void close() {
        server.close().syncUninterruptibly();
        clients.values().forEach(Channel::close);
    }

    private static final class Session extends SimpleChannelInboundHandler<Object> {
        private final String name;
        private final Agent agent;
        private final Executor loop;
        private final InstantSource clock;
        private final Map<String, Channel> clients;
        private final BrokerTokens tokens;
        /** What the connection's hello made it; {@code null} before. */
        private BrokerTokens.Role role;

        Session(String name, Agent agent, Executor loop, InstantSource clock, Map<String, Channel> clients,
                BrokerTokens tokens) {
            this.tokens = tokens;
            this.name = name;
            this.agent = agent;
            this.loop = loop;
            this.clock = clock;
            this.clients = clients;
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) throws Exception {
            ctx.executor().schedule(() -> {
                if (role == null && ctx.channel().isActive()) {
                    LOG.info("broker connection from {}: no hello within {} s, closing", ctx.channel().remoteAddress(),
                            HELLO_DEADLINE_MS / 1000);
                    ctx.close();
                }
            }, HELLO_DEADLINE_MS, TimeUnit.MILLISECONDS);
            super.channelActive(ctx);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (clients.remove(name) == null) {
                return;  // never accepted: it has no tasks
            }
            try {
                loop.execute(() -> agent.dispatch(agent.broker().clientDied(clock.millis(), name)));
            } catch (RejectedExecutionException e) {
                return;  // the agent is stopping; its broker goes with it
            }
            LOG.info("broker client {} disconnected: its tasks are dropped", name);
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, Object message) {
            if (message instanceof DecodeFailure failure) {
                ctx.writeAndFlush(new BrokerMessage.BrokerError(
                        failure.error().code().name().toLowerCase(Locale.ROOT), failure.error().getMessage(),
                        false));
                return;
            }
            BrokerMessage request = (BrokerMessage) message;
            if (role == null) {
                hello(ctx, request);
                return;
            }
            if (request instanceof BrokerMessage.Configure && role != BrokerTokens.Role.ADMIN) {
                LOG.warn("broker client {} tried to configure the broker without the admin token", name);
                ctx.writeAndFlush(new BrokerMessage.BrokerError("forbidden",
                        "configure needs the node's broker admin token", false));
                return;
            }
            try {
                loop.execute(() -> apply(ctx, request));
            } catch (RejectedExecutionException e) {
                ctx.close();
            }
        }

        /** The first message must be a hello with a token of the node: else the connection is closed. */
        private void hello(ChannelHandlerContext ctx, BrokerMessage request) {
            Optional<BrokerTokens.Role> given = request instanceof BrokerMessage.Hello hello
                    ? tokens.roleOf(hello.token()) : Optional.empty();
            if (given.isEmpty()) {
                LOG.warn("broker connection from {} refused: {}", ctx.channel().remoteAddress(),
                        request instanceof BrokerMessage.Hello ? "a wrong token" : "no hello first");
                ctx.writeAndFlush(new BrokerMessage.BrokerError("unauthenticated", request instanceof BrokerMessage.Hello
                        ? "the token is not this node's broker token"
                        : "send hello with the node's broker token (" + BrokerTokens.CLIENT_FILE + ") first", true))
                        .addListener(ChannelFutureListener.CLOSE);
                return;
            }
            role = given.get();
            ConnectionLimiter.trust(ctx.channel());
            clients.put(name, ctx.channel());
            LOG.info("broker client {} connected from {} as {}", name, ctx.channel().remoteAddress(),
                    role.name().toLowerCase(Locale.ROOT));
            ctx.writeAndFlush(new BrokerMessage.HelloResult(role.name().toLowerCase(Locale.ROOT)));
        }

        private void apply(ChannelHandlerContext ctx, BrokerMessage request) {
            ResourceBroker broker = agent.broker();
            long now = clock.millis();
            List<BrokerEvent> events;
            if (request instanceof BrokerMessage.Submit submit) {
                events = broker.submit(now, name, BrokerWire.request(submit));
            } else if (request instanceof BrokerMessage.Update update) {
                events = broker.update(now, name, update.taskId(), BrokerWire.task(update.resources()),
                        update.taskType(), update.priority(), update.resubmit());
            } else if (request instanceof BrokerMessage.UpdateCookie cookie) {
                events = broker.updateCookie(now, name, cookie.taskId(), cookie.cookie());
            } else if (request instanceof BrokerMessage.Remove remove) {
                events = broker.remove(now, name, remove.taskId());
            } else if (request instanceof BrokerMessage.Finish finish) {
                events = broker.finish(now, name, finish.taskId());
            } else if (request instanceof BrokerMessage.Configure configure) {
                ResourceBroker.ConfigureResult result;
                try {
                    result = broker.configure(now, BrokerWire.config(configure).withNodeTasks());
                } catch (IllegalArgumentException e) {
                    result = new ResourceBroker.ConfigureResult(false, e.getMessage(), List.of());
                }
                LOG.info("broker client {} configured the broker: {}", name, result.success() ? "applied" : result.message());
                ctx.writeAndFlush(new BrokerMessage.ConfigureResult(result.success(), result.message()));
                events = result.events();
            } else {
                ctx.writeAndFlush(new BrokerMessage.BrokerError("invalid_message",
                        "a client may send hello once, then submit, update, update_cookie, remove, finish and configure, not "
                                + request.getClass().getSimpleName(), false));
                return;
            }
            agent.dispatch(events);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            LOG.warn("broker client {}: {}", name, cause.toString());
            ctx.close();
        }
    }
}
