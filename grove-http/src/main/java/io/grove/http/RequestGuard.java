package io.grove.http;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import java.util.Map;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;
import java.util.function.BiPredicate;

/**
 * Guards one HTTP connection between the codec and the aggregator: the request head must arrive
 * within the header timeout (from the connection's start; on a kept-alive connection the idle
 * timeout from the last response), its body within the body timeout; a head the routes refuse
 * ({@link HeaderGate}, e.g. without a valid token) is answered at once and its body is never read.
 * A body takes its room out of the endpoint's bytes in flight (its length, or the largest body)
 * until it is read whole or its connection ends; one that finds no room is answered {@code 503}
 * and not read, so no number of unfinished bodies holds more than that.
 */
final class RequestGuard extends ChannelDuplexHandler {

    private final HttpLimits limits;
    private final BiFunction<HttpRequest, String, ApiException> gate;
    private final BiPredicate<HttpRequest, String> proves;
    private ScheduledFuture<?> deadline;
    private boolean discarding;
    private boolean inBody;
    /** The endpoint's body bytes being received, and this connection's part of them. */
    private final AtomicLong inFlight;
    private long reserved;

    RequestGuard(HttpLimits limits, BiFunction<HttpRequest, String, ApiException> gate,
            BiPredicate<HttpRequest, String> proves, AtomicLong inFlight) {
        this.inFlight = inFlight;
        this.limits = limits;
        this.gate = gate;
        this.proves = proves;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        arm(ctx, limits.headerTimeout().toMillis(), false);
        super.channelActive(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (msg instanceof HttpRequest head) {
            cancel();
            ApiException refusal = head.decoderResult().isSuccess() ? gate.apply(head, String.valueOf(ctx.channel().remoteAddress())) : null;
            if (refusal != null) {
                discarding = true;
                ReferenceCountUtil.release(msg);
                ctx.writeAndFlush(ApiServer.errorResponse(refusal.status(), refusal.code(), refusal.getMessage(),
                        refusal.details(), false)).addListener(ChannelFutureListener.CLOSE);
                return;
            }
            if (head.decoderResult().isSuccess() && proves.test(head, String.valueOf(ctx.channel().remoteAddress()))) {
                ConnectionLimiter.trust(ctx.channel());
            }
            inBody = !(msg instanceof LastHttpContent);
            if (inBody) {
                // its length, the largest body when it comes in chunks, none without either
                long length = HttpUtil.isTransferEncodingChunked(head) ? limits.maxBodyBytes()
                        : HttpUtil.getContentLength(head, 0L);
                long room = Math.min(Math.max(length, 0), limits.maxBodyBytes());
                if (inFlight.addAndGet(room) > limits.maxBodyBytesInFlight()) {
                    inFlight.addAndGet(-room);
                    discarding = true;
                    ReferenceCountUtil.release(msg);
                    ctx.writeAndFlush(ApiServer.errorResponse(503, "TOO_BUSY", "the server is receiving "
                            + limits.maxBodyBytesInFlight() + " bytes of bodies already; try again shortly",
                            Map.of(), false)).addListener(ChannelFutureListener.CLOSE);
                    return;
                }
                reserved = room;
                arm(ctx, limits.bodyTimeout().toMillis(), true);
            }
        } else if (msg instanceof HttpContent content) {
            if (discarding) {
                ReferenceCountUtil.release(content);
                return;
            }
            if (content instanceof LastHttpContent) {
                inBody = false;
                cancel();
                super.channelRead(ctx, msg);
                unreserve();
                return;
            }
        }
        super.channelRead(ctx, msg);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
        if (msg instanceof HttpResponse response && String.valueOf(response.headers().get(HttpHeaderNames.CONTENT_TYPE))
                .startsWith("text/event-stream")) {
            // an event stream goes on as long as its client stays: no idle deadline
            cancel();
        } else if (msg instanceof HttpResponse response && !discarding
                && !"close".equalsIgnoreCase(response.headers().get(HttpHeaderNames.CONNECTION))) {
            // the next request on this connection must start within the idle timeout
            arm(ctx, limits.idleTimeout().toMillis(), false);
        }
        super.write(ctx, msg, promise);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        cancel();
        unreserve();
        super.channelInactive(ctx);
    }

    private void arm(ChannelHandlerContext ctx, long millis, boolean body) {
        cancel();
        deadline = ctx.executor().schedule(() -> expired(ctx, body), millis, TimeUnit.MILLISECONDS);
    }

    private void expired(ChannelHandlerContext ctx, boolean body) {
        if (!ctx.channel().isActive()) {
            return;
        }
        if (body && inBody) {
            discarding = true;
            ctx.writeAndFlush(ApiServer.errorResponse(408, "REQUEST_TIMEOUT", "the request's body did not arrive within "
                    + limits.bodyTimeout().toSeconds() + " s", Map.of(), false))
                    .addListener(ChannelFutureListener.CLOSE);
        } else {
            ctx.close();
        }
    }

    private void unreserve() {
        inFlight.addAndGet(-reserved);
        reserved = 0;
    }

    private void cancel() {
        if (deadline != null) {
            deadline.cancel(false);
            deadline = null;
        }
    }
}
