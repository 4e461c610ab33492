package io.grove.http;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoEventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;

/**
 * Which of Netty's transports a server's event loops use: Linux's epoll through Netty's native
 * library where it loads (fewer system calls and less garbage per message than NIO), else NIO. A
 * server's channels follow the group they are given, so groups of either kind work everywhere.
 */
public final class Transport {

    private Transport() {
    }

    /** Whether the native epoll transport loaded here; when not, {@link #unavailability} says why. */
    public static boolean epoll() {
        return Epoll.isAvailable() && !Boolean.getBoolean("grove.nio");
    }

    /** Why epoll is not used, or {@code null} when it is. */
    public static String unavailability() {
        if (epoll()) {
            return null;
        }
        return Boolean.getBoolean("grove.nio") ? "-Dgrove.nio=true" : String.valueOf(Epoll.unavailabilityCause());
    }

    /** Event loops of the best transport here. */
    public static EventLoopGroup group(int threads) {
        return new MultiThreadIoEventLoopGroup(threads, epoll() ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
    }

    /** The client channel for {@code group}'s transport. */
    public static Class<? extends SocketChannel> socketChannel(EventLoopGroup group) {
        return epoll(group) ? EpollSocketChannel.class : NioSocketChannel.class;
    }

    private static boolean epoll(EventLoopGroup group) {
        return group instanceof IoEventLoopGroup io && io.isIoType(EpollIoHandler.class);
    }

    /** The server channel for {@code group}'s transport. */
    public static Class<? extends ServerSocketChannel> serverChannel(EventLoopGroup group) {
        return epoll(group) ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }
}
