package io.grove.server.net;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Back-pressure on the node port: a connection's frames are handed to its session one at a time.
 * Every frame a node sends gets exactly one reply, so the next frame is passed on only once the
 * previous reply is written, and only while the connection's outbound buffer is below its high
 * water mark (Netty's writability). A frame that comes meanwhile waits, at most
 * {@value #MAX_WAITING} of them (more closes the connection), and the connection is not read until
 * they are answered. A peer that pipelines frames and never reads its replies so holds one reply
 * and what the kernel's buffers take. A node that waits for each reply, as nodes do, never stops
 * the reading: the heartbeat's path costs no system call more.
 */
final class FramePacer extends ChannelDuplexHandler {

    private static final Logger LOG = LoggerFactory.getLogger(FramePacer.class);
    /** Frames of one connection that may wait behind the one being answered. */
    static final int MAX_WAITING = 16;

    private final AtomicLong heldBack;
    private final ArrayDeque<Object> waiting = new ArrayDeque<>();
    /** Whether a frame was passed on and its reply is not yet written. */
    private boolean answering;
    /** Whether the reply was handed over and waits for the peer to take it (the kernel's buffers are full). */
    private boolean replyUnread;

    FramePacer(AtomicLong heldBack) {
        this.heldBack = heldBack;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object frame) {
        if (answering || !ctx.channel().isWritable() || !waiting.isEmpty()) {
            if (replyUnread) {
                heldBack.incrementAndGet();
            }
            if (waiting.size() >= MAX_WAITING) {
                LOG.warn("node connection from {}: more than {} frames waiting for their replies; closing it",
                        ctx.channel().remoteAddress(), MAX_WAITING);
                ReferenceCountUtil.release(frame);
                ctx.close();
                return;
            }
            waiting.add(frame);
            ctx.channel().config().setAutoRead(false);
            return;
        }
        pass(ctx, frame);
    }

    private void pass(ChannelHandlerContext ctx, Object frame) {
        answering = true;
        ctx.fireChannelRead(frame);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object reply, ChannelPromise promise) {
        ChannelPromise written = promise.unvoid();
        replyUnread = true;
        written.addListener(done -> {
            replyUnread = false;
            answering = false;
            next(ctx);
        });
        ctx.write(reply, written);
    }

    private void next(ChannelHandlerContext ctx) {
        if (answering || !ctx.channel().isActive() || !ctx.channel().isWritable()) {
            return;
        }
        Object frame = waiting.poll();
        if (frame != null) {
            pass(ctx, frame);
        } else if (!ctx.channel().config().isAutoRead()) {
            ctx.channel().config().setAutoRead(true);
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        next(ctx);
        super.channelWritabilityChanged(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        for (Object frame = waiting.poll(); frame != null; frame = waiting.poll()) {
            ReferenceCountUtil.release(frame);
        }
        super.channelInactive(ctx);
    }
}
