package io.grove.server.ha;

import io.grove.protocol.ErrorCode;
import io.grove.protocol.ErrorReply;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.util.function.Supplier;

/**
 * The one node port a high-availability scheduler keeps across its roles: a new connection gets the
 * leading daemon's session while it leads, and a standby's answer otherwise — {@code not_leader}
 * with the leader's node endpoint, then the connection is closed. When the daemon stops leading,
 * every connection it served is closed, so its nodes move on to the new leader.
 */
final class NodeRouter {

    private final Supplier<String> leaderNodes;
    private final ChannelGroup leading = new DefaultChannelGroup("grove-leader-nodes", GlobalEventExecutor.INSTANCE);
    private volatile Supplier<? extends ChannelHandler> sessions;

    /** @param leaderNodes the leader's node endpoint as the group knows it, or {@code null} */
    NodeRouter(Supplier<String> leaderNodes) {
        this.leaderNodes = leaderNodes;
    }

    /** The leading daemon's sessions, or {@code null} when it stops: its connections are closed. */
    void lead(Supplier<? extends ChannelHandler> daemonSessions) {
        this.sessions = daemonSessions;
        if (daemonSessions == null) {
            leading.close();
        }
    }

    /** A handler for a new connection, as the role of the moment decides. */
    ChannelHandler newSession() {
        Supplier<? extends ChannelHandler> current = sessions;
        if (current == null) {
            return new Standby(leaderNodes.get());
        }
        return new Leading(current.get());
    }

    /** Puts the daemon's session in its place and remembers the connection, to close it on a step-down. */
    private final class Leading extends ChannelInboundHandlerAdapter {
        private final ChannelHandler session;

        Leading(ChannelHandler session) {
            this.session = session;
        }

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            leading.add(ctx.channel());
            ctx.pipeline().replace(this, "session", session);
        }
    }

    /** Answers whatever a node sends with {@code not_leader} and closes the connection. */
    private static final class Standby extends SimpleChannelInboundHandler<Object> {
        private final String leader;

        Standby(String leader) {
            this.leader = leader;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, Object message) {
            ctx.writeAndFlush(new ErrorReply(ErrorCode.NOT_LEADER, leader == null
                    ? "this scheduler is a standby and no leader is known yet; try the others"
                    : "this scheduler is a standby; the leader's node endpoint is " + leader, true, leader))
                    .addListener(ChannelFutureListener.CLOSE);
        }
    }
}
