package io.grove.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A server follows the transport of the event loops it is given: epoll where it loads, NIO always. */
class TransportTest {

    @Test
    void theServerChannelMatchesTheGroup() {
        EventLoopGroup nio = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        EventLoopGroup best = Transport.group(1);
        try {
            assertEquals(NioServerSocketChannel.class, Transport.serverChannel(nio));
            assertEquals(Transport.epoll() ? EpollServerSocketChannel.class : NioServerSocketChannel.class,
                    Transport.serverChannel(best));
        } finally {
            nio.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            best.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
    }

    /** On Linux x86-64 the native library ships with Grove, so epoll must load here. */
    @Test
    void epollLoadsOnLinux() {
        if ("Linux".equals(System.getProperty("os.name")) && "amd64".equals(System.getProperty("os.arch"))) {
            assertTrue(Epoll.isAvailable(), "epoll: " + Epoll.unavailabilityCause());
        }
    }

    @Test
    void anApiServerAnswersOnEitherTransport() throws Exception {
        for (EventLoopGroup group : new EventLoopGroup[] {Transport.group(1),
            new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory())}) {
            ApiServer server = ApiServer.start(group, group, "127.0.0.1", 0,
                    request -> CompletableFuture.completedFuture(ApiResponse.json(200, "{\"ok\": true}")), null,
                    HttpLimits.API);
            try (Socket socket = new Socket("127.0.0.1", server.port())) {
                socket.setSoTimeout(10_000);
                OutputStream out = socket.getOutputStream();
                out.write("GET /x HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
                InputStream in = socket.getInputStream();
                String reply = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                assertTrue(reply.startsWith("HTTP/1.1 200") && reply.endsWith("{\"ok\": true}"), reply);
            } finally {
                server.close();
                group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            }
        }
    }
}
