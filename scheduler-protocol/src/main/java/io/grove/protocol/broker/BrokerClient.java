package io.grove.protocol.broker;

import io.grove.protocol.DecodeFailure;
import io.grove.protocol.FrameCodec;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.io.IOException;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A co-located service's connection to its node's Resource Broker. Submit tasks, wait for their
 * allocation, finish them; closing the client drops its tasks. Every pushed message also goes to
 * the listener given at connect.
 */
public final class BrokerClient implements AutoCloseable {

    private static final int MAX_FRAME_BYTES = 1024 * 1024;

    private final Channel channel;
    private final EventLoopGroup ownGroup;
    private final Map<Long, CompletableFuture<BrokerMessage>> waiting = new ConcurrentHashMap<>();
    private volatile Consumer<BrokerMessage> listener;
    private volatile CompletableFuture<BrokerMessage.ConfigureResult> configuring = new CompletableFuture<>();
    private volatile CompletableFuture<BrokerMessage> helloAnswer = new CompletableFuture<>();

    private BrokerClient(Channel channel, EventLoopGroup ownGroup) {
        this.channel = channel;
        this.ownGroup = ownGroup;
    }

    /**
     * Connects to the broker's loopback port with a thread of its own and introduces itself with
     * {@code token} (the node's broker client or admin token); waits until the broker accepts it.
     *
     * @throws IOException if it cannot connect, or the broker refuses the token
     */
    public static BrokerClient connect(String host, int port, String token, Consumer<BrokerMessage> listener)
            throws IOException {
        NioEventLoopGroup group = new NioEventLoopGroup(1);
        BrokerClient client;
        try {
            client = connect(group, host, port, listener, group);
        } catch (IOException e) {
            group.shutdownGracefully();
            throw e;
        }
        try {
            BrokerMessage answer = client.hello(token).get(10, TimeUnit.SECONDS);
            if (!(answer instanceof BrokerMessage.HelloResult)) {
                throw new IOException("the broker at " + host + ":" + port + " refused the token: "
                        + (answer instanceof BrokerMessage.BrokerError error ? error.message() : answer));
            }
            return client;
        } catch (IOException e) {
            client.close();
            throw e;
        } catch (Exception e) {
            client.close();
            throw new IOException("the broker at " + host + ":" + port + " did not answer its hello: " + e, e);
        }
    }

    /** The role the broker gave this connection once it accepted its hello ({@code client} or {@code admin}). */
    private CompletableFuture<BrokerMessage> hello(String token) {
        CompletableFuture<BrokerMessage> answer = new CompletableFuture<>();
        helloAnswer = answer;
        send(new BrokerMessage.Hello(token), answer);
        return answer;
    }

    private static BrokerClient connect(EventLoopGroup group, String host, int port, Consumer<BrokerMessage> listener,
            EventLoopGroup own) throws IOException {
        BrokerClient[] holder = new BrokerClient[1];
        Bootstrap bootstrap = new Bootstrap().group(group).channel(NioSocketChannel.class)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 5000)
                .option(ChannelOption.TCP_NODELAY, true)
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        FrameCodec.install(ch.pipeline(), MAX_FRAME_BYTES, BrokerMessage.class,
                                text -> new BrokerMessage.BrokerError("frame_too_large", text, true));
                        ch.pipeline().addLast("client", new Inbound(() -> holder[0]));
                    }
                });
        try {
            Channel channel = bootstrap.connect(host, port).sync().channel();
            BrokerClient client = new BrokerClient(channel, own);
            client.listener = listener == null ? m -> { } : listener;
            holder[0] = client;
            return client;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while connecting to the broker at " + host + ":" + port, e);
        } catch (Exception e) {
            throw new IOException("cannot connect to the broker at " + host + ":" + port + ": " + e.getMessage(), e);
        }
    }

    /**
     * Submits a task. With a task id other than 0, the future completes with its
     * {@link BrokerMessage.Allocated} or {@link BrokerMessage.TaskError}.
     */
    public CompletableFuture<BrokerMessage> submit(BrokerMessage.Submit submit) {
        CompletableFuture<BrokerMessage> answer = new CompletableFuture<>();
        if (submit.taskId() != 0) {
            waiting.put(submit.taskId(), answer);
        }
        send(submit, answer);
        return answer;
    }

    /** Sends an operation that is answered only when it fails. */
    public void send(BrokerMessage message) {
        send(message, null);
    }

    /** Sends a new configuration; the future completes with the broker's answer. */
    public synchronized CompletableFuture<BrokerMessage.ConfigureResult> configure(BrokerMessage.Configure configure) {
        CompletableFuture<BrokerMessage.ConfigureResult> answer = new CompletableFuture<>();
        configuring = answer;
        send(configure, null);
        return answer;
    }

    private void send(BrokerMessage message, CompletableFuture<BrokerMessage> answer) {
        channel.writeAndFlush(message).addListener(f -> {
            if (!f.isSuccess() && answer != null) {
                answer.completeExceptionally(f.cause());
            }
        });
    }

    public boolean isOpen() {
        return channel.isActive();
    }

    @Override
    public void close() {
        channel.close().syncUninterruptibly();
        if (ownGroup != null) {
            ownGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    private void received(BrokerMessage message) {
        if (message instanceof BrokerMessage.Allocated allocated) {
            complete(allocated.taskId(), message);
        } else if (message instanceof BrokerMessage.TaskError error) {
            complete(error.taskId(), message);
        } else if (message instanceof BrokerMessage.ConfigureResult result) {
            configuring.complete(result);
        } else if (message instanceof BrokerMessage.HelloResult) {
            helloAnswer.complete(message);
        } else if (message instanceof BrokerMessage.BrokerError error) {
            helloAnswer.complete(error);
            if (error.code().equals("forbidden")) {
                configuring.complete(new BrokerMessage.ConfigureResult(false, error.message()));
            }
        }
        listener.accept(message);
    }

    private void complete(long taskId, BrokerMessage message) {
        CompletableFuture<BrokerMessage> answer = waiting.remove(taskId);
        if (answer != null) {
            answer.complete(message);
        }
    }

    private void closed(Throwable cause) {
        IOException error = new IOException("the broker connection closed", cause);
        waiting.values().forEach(f -> f.completeExceptionally(error));
        waiting.clear();
        configuring.completeExceptionally(error);
        helloAnswer.completeExceptionally(error);
    }

    private static final class Inbound extends SimpleChannelInboundHandler<Object> {
        private final Supplier<BrokerClient> client;

        Inbound(Supplier<BrokerClient> client) {
            this.client = client;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, Object message) {
            BrokerClient owner = client.get();
            if (owner == null) {
                return;
            }
            if (message instanceof BrokerMessage broker) {
                owner.received(broker);
            } else if (message instanceof DecodeFailure failure) {
                owner.received(new BrokerMessage.BrokerError(failure.reply().code().name().toLowerCase(Locale.ROOT),
                        failure.reply().message(), false));
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            BrokerClient owner = client.get();
            if (owner != null) {
                owner.closed(null);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
