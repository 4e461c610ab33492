package io.grove.protocol;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import javax.net.ssl.SSLParameters;

/**
 * A node's connection to the scheduler: requests are answered in order, one reply per request.
 * Used by the node agent and by load drivers; the event loop group is the caller's, so thousands
 * of clients can share a few threads.
 */
public final class NodeClient implements AutoCloseable {

    private final Channel channel;
    private final ArrayDeque<CompletableFuture<Message>> pending = new ArrayDeque<>();

    private NodeClient(Channel channel) {
        this.channel = channel;
    }

    /**
     * Connects to {@code host:port}.
     *
     * @throws IOException if the connection cannot be made within {@code timeout}
     */
    public static NodeClient connect(EventLoopGroup group, String host, int port, Duration timeout, int maxFrameBytes)
            throws IOException {
        return connect(group, host, port, timeout, maxFrameBytes, null);
    }

    /**
     * Connects to {@code host:port}, over TLS when {@code tls} is given (the server's certificate
     * is checked against the host name).
     *
     * @throws IOException if the connection (or the TLS handshake) cannot be made within {@code timeout}
     */
    public static NodeClient connect(EventLoopGroup group, String host, int port, Duration timeout, int maxFrameBytes,
            SslContext tls) throws IOException {
        NodeClient[] holder = new NodeClient[1];
        // kept here: a handshake that fails fast closes the channel, and its pipeline no longer has the handler
        SslHandler[] handshaking = new SslHandler[1];
        Bootstrap bootstrap = new Bootstrap().group(group).channel(NioSocketChannel.class)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) timeout.toMillis())
                .option(ChannelOption.TCP_NODELAY, true)
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        if (tls != null) {
                            SslHandler ssl = tls.newHandler(ch.alloc(), host, port);
                            SSLParameters parameters = ssl.engine().getSSLParameters();
                            parameters.setEndpointIdentificationAlgorithm("HTTPS");
                            ssl.engine().setSSLParameters(parameters);
                            ch.pipeline().addLast("tls", ssl);
                            handshaking[0] = ssl;
                        }
                        FrameCodec.install(ch.pipeline(), maxFrameBytes);
                        ch.pipeline().addLast("client", new Replies(() -> holder[0]));
                    }
                });
        try {
            Channel channel = bootstrap.connect(host, port).sync().channel();
            if (handshaking[0] != null) {
                handshaking[0].handshakeFuture().sync();
            }
            if (!channel.isActive()) {
                throw new IOException("the connection closed as it was made");
            }
            NodeClient client = new NodeClient(channel);
            holder[0] = client;
            return client;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while connecting to " + host + ":" + port, e);
        } catch (Exception e) {
            throw new IOException("cannot connect to " + host + ":" + port + ": " + e.getMessage(), e);
        }
    }

    /** Sends a request; the future completes with the reply (possibly an {@link ErrorReply}) or fails. */
    public CompletableFuture<Message> request(Message message, Duration timeout) {
        CompletableFuture<Message> reply = new CompletableFuture<>();
        channel.eventLoop().execute(() -> {
            if (!channel.isActive()) {
                reply.completeExceptionally(new IOException("the connection to the scheduler is closed"));
                return;
            }
            pending.addLast(reply);
            channel.writeAndFlush(message).addListener(f -> {
                if (!f.isSuccess()) {
                    pending.remove(reply);
                    reply.completeExceptionally(f.cause());
                }
            });
        });
        return reply.orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Whether the connection is still open (the scheduler may close it: a fatal error, a newer connection). */
    public boolean isOpen() {
        return channel.isActive();
    }

    private volatile Consumer<Message> onPush = message -> { };

    /** Where the scheduler's unsolicited messages ({@link HeartbeatNow}) go; on the connection's thread, must not block. */
    public void onPush(Consumer<Message> listener) {
        this.onPush = listener;
    }

    private void pushed(Message message) {
        onPush.accept(message);
    }

    @Override
    public void close() {
        channel.close().syncUninterruptibly();
    }

    private void completeNext(Message message) {
        CompletableFuture<Message> next = pending.pollFirst();
        if (next != null) {
            next.complete(message);
        }
    }

    private void failAll(Throwable cause) {
        CompletableFuture<Message> next;
        while ((next = pending.pollFirst()) != null) {
            next.completeExceptionally(cause);
        }
    }

    /** Completes requests in order; fails them when the connection drops. */
    private static final class Replies extends SimpleChannelInboundHandler<Object> {
        private final Supplier<NodeClient> client;

        Replies(Supplier<NodeClient> client) {
            this.client = client;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, Object message) {
            if (message instanceof HeartbeatNow now) {
                client.get().pushed(now);
            } else if (message instanceof Message reply) {
                client.get().completeNext(reply);
            } else if (message instanceof DecodeFailure failure) {
                client.get().completeNext(failure.reply());
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            NodeClient owner = client.get();
            if (owner != null) {
                owner.failAll(new IOException("the scheduler closed the connection"));
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            NodeClient owner = client.get();
            if (owner != null) {
                owner.failAll(cause);
            }
            ctx.close();
        }
    }
}
