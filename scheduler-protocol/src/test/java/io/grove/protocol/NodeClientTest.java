package io.grove.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.grove.core.resource.Resources;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The client against a small server on loopback that speaks the codec. */
class NodeClientTest {

    private EventLoopGroup group;
    private Channel server;

    @BeforeEach
    void start() throws InterruptedException {
        group = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
        server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        FrameCodec.install(ch.pipeline(), 4096);
                        ch.pipeline().addLast(new SimpleChannelInboundHandler<Object>() {
                            @Override
                            protected void channelRead0(ChannelHandlerContext ctx, Object message) {
                                if (message instanceof Handshake handshake) {
                                    ctx.writeAndFlush(new Welcome(Message.VERSION, handshake.nodeId(), 1000));
                                } else if (message instanceof NodeHeartbeat heartbeat) {
                                    ctx.writeAndFlush(new HeartbeatReply(List.of(), List.of(), List.of(),
                                            heartbeat.runningJobs().size() * 100L));
                                } else if (message instanceof DecodeFailure failure) {
                                    ctx.writeAndFlush(failure.reply());
                                }
                            }
                        });
                    }
                }).bind("127.0.0.1", 0).sync().channel();
    }

    @AfterEach
    void stop() {
        server.close().syncUninterruptibly();
        group.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
    }

    private int port() {
        return ((InetSocketAddress) server.localAddress()).getPort();
    }

    @Test
    void repliesComeBackInOrder() throws Exception {
        try (NodeClient client = NodeClient.connect(group, "127.0.0.1", port(), Duration.ofSeconds(5), 4096)) {
            Resources limits = new Resources(2, 2, 0, 4e9, 0);
            Message welcome = client.request(new Handshake(1, "n1", "", List.of(), limits, List.of(), null),
                    Duration.ofSeconds(5)).get();
            assertEquals(new Welcome(Message.VERSION, "n1", 1000), welcome);
            var first = client.request(new NodeHeartbeat("n1", limits, null, List.of(), List.of()), Duration.ofSeconds(5));
            var second = client.request(new NodeHeartbeat("n1", limits, null,
                    List.of(new RunningJob("j", "o", null)), List.of()), Duration.ofSeconds(5));
            assertEquals(0, ((HeartbeatReply) first.get()).nextHeartbeatMs());
            assertEquals(100, ((HeartbeatReply) second.get()).nextHeartbeatMs());
        }
    }

    @Test
    void aClosedServerFailsTheRequestInsteadOfHanging() throws Exception {
        NodeClient client = NodeClient.connect(group, "127.0.0.1", port(), Duration.ofSeconds(5), 4096);
        client.close();
        ExecutionException failed = assertThrows(ExecutionException.class, () -> client.request(
                new Welcome(1, "n", 1), Duration.ofSeconds(5)).get());
        assertInstanceOf(java.io.IOException.class, failed.getCause());
    }

    @Test
    void connectingToNothingIsAClearError() {
        server.close().syncUninterruptibly();
        java.io.IOException error = assertThrows(java.io.IOException.class,
                () -> NodeClient.connect(group, "127.0.0.1", port(), Duration.ofSeconds(2), 4096));
        assertEquals(true, error.getMessage().startsWith("cannot connect to 127.0.0.1:"), error.getMessage());
    }
}
