package io.grove.http;

import io.grove.api.ApiError;
import io.grove.api.ApiJson;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns Netty requests into {@link ApiRequest}s and responses back, one request of a connection at
 * a time: while a request is being answered, or while the connection's outbound buffer is above its
 * high water mark (a client that does not read), the connection is not read; requests a client
 * pipelined meanwhile wait, at most {@value #MAX_PIPELINED} of them (more closes the connection).
 * So a client that pipelines requests and never reads holds at most one answer and what the
 * kernel's buffers take, never the daemon's memory or its event loop.
 */
final class RequestHandler extends ChannelInboundHandlerAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(RequestHandler.class);
    /** Requests of one connection that may wait behind the one being answered. */
    static final int MAX_PIPELINED = 16;

    private final Function<ApiRequest, CompletableFuture<ApiResponse>> routes;
    private final AtomicLong heldBack;
    private final ArrayDeque<FullHttpRequest> waiting = new ArrayDeque<>();
    /** Whether a request's answer is being made or written. */
    private boolean answering;

    RequestHandler(Function<ApiRequest, CompletableFuture<ApiResponse>> routes, AtomicLong heldBack) {
        this.routes = routes;
        this.heldBack = heldBack;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof FullHttpRequest request)) {
            ReferenceCountUtil.release(msg);
            return;
        }
        if (answering || !ctx.channel().isWritable()) {
            if (waiting.size() >= MAX_PIPELINED) {
                LOG.warn("{}: more than {} pipelined requests waiting for their answers; closing the connection",
                        ctx.channel().remoteAddress(), MAX_PIPELINED);
                request.release();
                ctx.close();
                return;
            }
            waiting.add(request);
            ctx.channel().config().setAutoRead(false);
            return;
        }
        answer(ctx, request);
    }

    /** Answers one request; the connection is not read until its answer is written. */
    private void answer(ChannelHandlerContext ctx, FullHttpRequest request) {
        answering = true;
        ctx.channel().config().setAutoRead(false);
        boolean keepAlive = HttpUtil.isKeepAlive(request);
        if (!request.decoderResult().isSuccess()) {
            String why = String.valueOf(request.decoderResult().cause());
            request.release();
            write(ctx, error(400, "BAD_REQUEST", "the request is not valid HTTP: " + why, Map.of()), false);
            return;
        }
        ApiRequest api;
        try {
            api = ApiServer.toApi(request, request.content().toString(StandardCharsets.UTF_8),
                    String.valueOf(ctx.channel().remoteAddress()), () -> !ctx.channel().isActive());
        } finally {
            request.release();
        }
        CompletableFuture<ApiResponse> response;
        try {
            response = routes.apply(api);
        } catch (RuntimeException e) {
            response = CompletableFuture.failedFuture(e);
        }
        response.whenComplete((ok, failure) -> write(ctx, failure == null ? ok : toError(failure, api), keepAlive));
    }

    /** An answer is written: the next waiting request, or reading again, once the client keeps up. */
    private void answered(ChannelHandlerContext ctx) {
        answering = false;
        next(ctx);
    }

    private void next(ChannelHandlerContext ctx) {
        if (answering || !ctx.channel().isActive()) {
            return;
        }
        if (!ctx.channel().isWritable()) {
            return;
        }
        FullHttpRequest request = waiting.poll();
        if (request != null) {
            answer(ctx, request);
        } else {
            ctx.channel().config().setAutoRead(true);
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        if (!ctx.channel().isWritable()) {
            // the client does not take its answers: the connection is not read until it does
            heldBack.incrementAndGet();
        }
        next(ctx);
        super.channelWritabilityChanged(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        for (FullHttpRequest request = waiting.poll(); request != null; request = waiting.poll()) {
            request.release();
        }
        super.channelInactive(ctx);
    }

    private ApiResponse toError(Throwable failure, ApiRequest request) {
        Throwable cause = Futures.cause(failure);
        if (cause instanceof ApiException api) {
            return error(api.status(), api.code(), api.getMessage(), api.details());
        }
        LOG.error("{} /{} failed", request.method(), String.join("/", request.path()), cause);
        return error(500, "INTERNAL", String.valueOf(cause.getMessage()), Map.of());
    }

    private static ApiResponse error(int status, String code, String message, Map<String, Object> details) {
        return ApiResponse.json(status, new ApiError(code, message, details));
    }

    /** How often a stream says it is alive (a comment), so that proxies and clients keep it. */
    static final long KEEP_ALIVE_SECONDS = 15;

    /**
     * Starts an event stream: the head, then each frame as it comes. The connection serves nothing
     * else; a client that does not take its frames (the outbound buffer above its high water mark)
     * is closed rather than buffered for.
     */
    private void stream(ChannelHandlerContext ctx, ApiResponse response) {
        AutoCloseable handle;
        Consumer<String> sink = frame -> ctx.executor().execute(() -> {
            if (!ctx.channel().isActive()) {
                return;
            }
            if (!ctx.channel().isWritable()) {
                LOG.warn("{}: an event stream's client does not read; closing it", ctx.channel().remoteAddress());
                ctx.close();
                return;
            }
            ctx.writeAndFlush(new DefaultHttpContent(
                    Unpooled.copiedBuffer(frame, StandardCharsets.UTF_8)));
        });
        HttpResponse head = new DefaultHttpResponse(
                HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        head.headers().set(HttpHeaderNames.CONTENT_TYPE, response.contentType());
        head.headers().set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
        head.headers().set("X-Content-Type-Options", "nosniff");
        response.headers().forEach(head.headers()::set);
        ctx.write(head);
        try {
            handle = response.events().open(sink);
        } catch (ApiException refused) {
            ctx.writeAndFlush(new DefaultLastHttpContent(Unpooled.copiedBuffer(
                    "event: error\ndata: " + ApiJson.writeCompact(new ApiError(refused.code(),
                            refused.getMessage(), refused.details())) + "\n\n", StandardCharsets.UTF_8)))
                    .addListener(ChannelFutureListener.CLOSE);
            return;
        }
        ctx.flush();
        ScheduledFuture<?> alive = ctx.executor().scheduleAtFixedRate(() -> sink.accept(": alive\n\n"),
                KEEP_ALIVE_SECONDS, KEEP_ALIVE_SECONDS, TimeUnit.SECONDS);
        ctx.channel().closeFuture().addListener(closed -> {
            alive.cancel(false);
            try {
                handle.close();
            } catch (Exception e) {
                LOG.debug("closing an event stream", e);
            }
        });
    }

    private void write(ChannelHandlerContext ctx, ApiResponse response, boolean keepAlive) {
        if (response.events() != null) {
            stream(ctx, response);
            return;
        }
        byte[] bytes = response.body().getBytes(StandardCharsets.UTF_8);
        FullHttpResponse http = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                HttpResponseStatus.valueOf(response.status()), Unpooled.wrappedBuffer(bytes));
        http.headers().set(HttpHeaderNames.CONTENT_TYPE, response.contentType());
        http.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, bytes.length);
        http.headers().set("X-Content-Type-Options", "nosniff");
        response.headers().forEach(http.headers()::set);
        if (response.contentType().startsWith("text/html")) {
            // a page served here loads nothing from elsewhere, runs no inline script, is framed by no one
            http.headers().set("Content-Security-Policy", ApiServer.HTML_POLICY);
            http.headers().set("Referrer-Policy", "no-referrer");
        }
        if (keepAlive) {
            HttpUtil.setKeepAlive(http, true);
        }
        ChannelFuture written = ctx.writeAndFlush(http);
        if (keepAlive) {
            written.addListener(f -> answered(ctx));
        } else {
            written.addListener(ChannelFutureListener.CLOSE);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }
}
