package io.grove.server.net;

import io.grove.http.ConnectionLimiter;
import io.grove.http.Transport;
import io.grove.protocol.FrameCodec;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.handler.timeout.IdleStateHandler;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The TCP endpoint nodes connect to: frames, an idle timeout, and a {@link NodeSession} per
 * connection, fed its frames one at a time ({@link FramePacer}). Connections are capped ({@value #MAX_CONNECTIONS} in all, {@value #MAX_PER_ADDRESS}
 * from one address: a node needs one), so no flood of peers can take the descriptors.
 */
public final class NodeEndpoint implements AutoCloseable {

    /** Room for the 10,000 nodes of the design target and their reconnections. */
    public static final int MAX_CONNECTIONS = 16_384;
    public static final int MAX_PER_ADDRESS = 16;

    private final Channel server;
    private final AtomicLong heldBack;

    private NodeEndpoint(Channel server, AtomicLong heldBack) {
        this.server = server;
        this.heldBack = heldBack;
    }

    /** Binds and starts accepting; with {@code tls}, every connection is TLS first (mutual when it has a CA). */
    public static NodeEndpoint start(EventLoopGroup boss, EventLoopGroup workers, String host, int port,
            int maxFrameBytes, Duration idleTimeout, Supplier<? extends ChannelHandler> sessions, SslContext tls,
            int perAddress) throws InterruptedException {
        ConnectionLimiter connections = new ConnectionLimiter(
                "node port " + host + ":" + port, MAX_CONNECTIONS, perAddress);
        AtomicLong heldBack = new AtomicLong();
        Channel channel = new ServerBootstrap().group(boss, workers).channel(Transport.serverChannel(boss))
                .option(ChannelOption.SO_BACKLOG, 4096)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast("connections", connections);
                        if (tls != null) {
                            ch.pipeline().addLast("tls", tls.newHandler(ch.alloc()));
                            ch.pipeline().addLast("tls-failures", new TlsFailures());
                        }
                        ch.pipeline().addLast("idle", new IdleStateHandler(idleTimeout.toMillis(), 0, 0, TimeUnit.MILLISECONDS));
                        FrameCodec.install(ch.pipeline(), maxFrameBytes);
                        ch.pipeline().addLast("pacer", new FramePacer(heldBack));
                        ch.pipeline().addLast("session", sessions.get());
                    }
                }).bind(host, port).sync().channel();
        return new NodeEndpoint(channel, heldBack);
    }

    /** Logs a refused TLS handshake (a bad or missing certificate) and closes the connection. */
    static final class TlsFailures extends ChannelInboundHandlerAdapter {
        private static final Logger LOG = LoggerFactory.getLogger(TlsFailures.class);

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
            if (event instanceof SslHandshakeCompletionEvent done && !done.isSuccess()) {
                LOG.warn("node connection from {} refused: TLS handshake failed: {}", ctx.channel().remoteAddress(),
                        done.cause() == null ? "?" : done.cause().getMessage());
                ctx.close();
                return;
            }
            super.userEventTriggered(ctx, event);
        }
    }

    /** How many times a connection was not read because its peer did not read its replies. */
    public long heldBack() {
        return heldBack.get();
    }

    public int port() {
        return ((InetSocketAddress) server.localAddress()).getPort();
    }

    @Override
    public void close() {
        server.close().syncUninterruptibly();
    }
}
