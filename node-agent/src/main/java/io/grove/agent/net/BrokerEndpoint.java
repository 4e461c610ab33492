package io.grove.agent.net;

import io.grove.agent.Agent;
import io.grove.agent.broker.BrokerEvent;
import io.grove.agent.broker.ResourceBroker;
import io.grove.protocol.DecodeFailure;
import io.grove.protocol.FrameCodec;
import io.grove.protocol.broker.BrokerMessage;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
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
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's loopback API: the framed protocol on a local port. Each connection is one client
 * ({@code local-N}); its messages are applied on the agent's thread, allocations and errors are
 * pushed back, and closing the connection drops its tasks (the seed's "client died").
 */
public final class BrokerEndpoint implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(BrokerEndpoint.class);
    static final int MAX_FRAME_BYTES = 1024 * 1024;

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
    public static BrokerEndpoint start(EventLoopGroup group, int port, Agent agent, Executor loop, InstantSource clock)
            throws InterruptedException {
        return start(group, "127.0.0.1", port, agent, loop, clock);
    }

    /** Listens on {@code host} (loopback unless configured otherwise). */
    public static BrokerEndpoint start(EventLoopGroup group, String host, int port, Agent agent, Executor loop,
            InstantSource clock) throws InterruptedException {
        Map<String, Channel> clients = new ConcurrentHashMap<>();
        AtomicLong sequence = new AtomicLong();
        Channel channel = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        FrameCodec.install(ch.pipeline(), MAX_FRAME_BYTES, BrokerMessage.class,
                                text -> new BrokerMessage.BrokerError("frame_too_large", text, true));
                        String name = "local-" + sequence.incrementAndGet();
                        ch.pipeline().addLast("broker", new Session(name, agent, loop, clock, clients));
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

        Session(String name, Agent agent, Executor loop, InstantSource clock, Map<String, Channel> clients) {
            this.name = name;
            this.agent = agent;
            this.loop = loop;
            this.clock = clock;
            this.clients = clients;
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            clients.put(name, ctx.channel());
            LOG.info("broker client {} connected from {}", name, ctx.channel().remoteAddress());
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            clients.remove(name);
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
            try {
                loop.execute(() -> apply(ctx, request));
            } catch (RejectedExecutionException e) {
                ctx.close();
            }
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
                    result = broker.configure(now, BrokerWire.config(configure));
                } catch (IllegalArgumentException e) {
                    result = new ResourceBroker.ConfigureResult(false, e.getMessage(), List.of());
                }
                LOG.info("broker client {} configured the broker: {}", name, result.success() ? "applied" : result.message());
                ctx.writeAndFlush(new BrokerMessage.ConfigureResult(result.success(), result.message()));
                events = result.events();
            } else {
                ctx.writeAndFlush(new BrokerMessage.BrokerError("invalid_message",
                        "a client may send submit, update, update_cookie, remove, finish and configure, not "
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
