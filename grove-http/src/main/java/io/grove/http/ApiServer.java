package io.grove.http;

import io.grove.api.ApiError;
import io.grove.api.ApiJson;
import io.grove.api.ErrorDetails;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.ssl.SslContext;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;
import java.util.function.BiPredicate;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP endpoint: requests within {@link HttpLimits} (connection caps, header, body and idle
 * timeouts, body size), answered by a route that returns a future; errors are JSON
 * {@code {code, message, details}}.
 */
public final class ApiServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ApiServer.class);

    private final Channel server;
    /** How many times a connection was not read because its client did not read its answers. */
    private final AtomicLong heldBack;

    private ApiServer(Channel server, AtomicLong heldBack) {
        this.heldBack = heldBack;
        this.server = server;
    }

    public static ApiServer start(EventLoopGroup boss, EventLoopGroup workers, String host, int port,
            Function<ApiRequest, CompletableFuture<ApiResponse>> routes) throws InterruptedException {
        return start(boss, workers, host, port, routes, null, HttpLimits.API);
    }

    /**
     * As above, over TLS (HTTPS) when {@code tls} is given, within {@code limits}. Routes that are
     * a {@link HeaderGate} refuse requests on their head, before any body is read.
     */
    public static ApiServer start(EventLoopGroup boss, EventLoopGroup workers, String host, int port,
            Function<ApiRequest, CompletableFuture<ApiResponse>> routes, SslContext tls, HttpLimits limits) throws InterruptedException {
        ConnectionLimiter connections = new ConnectionLimiter("HTTP " + host + ":" + port, limits.maxConnections(),
                limits.maxConnectionsPerAddress());
        BiFunction<HttpRequest, String, ApiException> gate = routes instanceof HeaderGate headerGate
                ? (head, source) -> headerGate.checkHead(toApi(head, "", source)) : (head, source) -> null;
        BiPredicate<HttpRequest, String> proves = routes instanceof HeaderGate headerGate
                ? (head, source) -> headerGate.proves(toApi(head, "", source)) : (head, source) -> true;
        AtomicLong heldBack = new AtomicLong();
        AtomicLong bodiesInFlight = new AtomicLong();
        Channel channel = new ServerBootstrap().group(boss, workers).channel(Transport.serverChannel(boss))
                .option(ChannelOption.SO_BACKLOG, 1024)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast("connections", connections);
                        if (tls != null) {
                            ch.pipeline().addLast(tls.newHandler(ch.alloc()));
                        }
                        ch.pipeline().addLast(new HttpServerCodec(4096, 16 * 1024, 64 * 1024),
                                new RequestGuard(limits, gate, proves, bodiesInFlight), new Aggregator(limits.maxBodyBytes()),
                                new RequestHandler(routes, heldBack));
                    }
                }).bind(host, port).sync().channel();
        return new ApiServer(channel, heldBack);
    }

    /** Collects a request's body, answering one above the maximum with the documented JSON 413. */
    private static final class Aggregator extends HttpObjectAggregator {
        private final int max;

        Aggregator(int max) {
            super(max);
            this.max = max;
        }

        @Override
        protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) {
            ctx.writeAndFlush(errorResponse(413, "TOO_LARGE", "the request's body is larger than " + max + " bytes",
                    new ErrorDetails.MaxBytes(max).asMap(), false)).addListener(ChannelFutureListener.CLOSE);
        }
    }

    /** An error as the API writes them: JSON {@code {code, message, details}}. */
    static FullHttpResponse errorResponse(int status, String code, String message, Map<String, Object> details,
            boolean keepAlive) {
        byte[] bytes = ApiJson.write(new ApiError(code, message, details)).getBytes(StandardCharsets.UTF_8);
        FullHttpResponse http = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(status),
                Unpooled.wrappedBuffer(bytes));
        http.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/json");
        http.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, bytes.length);
        if (!keepAlive) {
            http.headers().set(HttpHeaderNames.CONNECTION, "close");
        }
        return http;
    }

    /** A Netty request as the routes see it. */
    static ApiRequest toApi(HttpRequest request, String body, String source) {
        return toApi(request, body, source, null);
    }

    /** As above, for a client whose leaving {@code gone} tells. */
    static ApiRequest toApi(HttpRequest request, String body, String source, BooleanSupplier gone) {
        QueryStringDecoder uri = new QueryStringDecoder(request.uri());
        List<String> path = new ArrayList<>();
        for (String part : uri.path().split("/")) {
            if (!part.isEmpty()) {
                path.add(QueryStringDecoder.decodeComponent(part));
            }
        }
        Map<String, String> query = new LinkedHashMap<>();
        uri.parameters().forEach((key, values) -> query.put(key, values.get(0)));
        // an event stream's client that reconnects says where it was (EventSource sends the header)
        String lastEventId = request.headers().get("Last-Event-ID");
        if (lastEventId != null && !query.containsKey("last_event_id")) {
            query.put("last_event_id", lastEventId);
        }
        return new ApiRequest(method(request), path, query, request.headers().get("X-Grove-User"),
                request.headers().get(HttpHeaderNames.CONTENT_TYPE), body, source, List.of(),
                request.headers().get(HttpHeaderNames.AUTHORIZATION), request.headers().get("Idempotency-Key"), gone);
    }

    /**
     * The request's method: a {@code POST} with {@code X-HTTP-Method-Override: PATCH} is a
     * {@code PATCH} (for clients whose HTTP stack has no {@code PATCH}, such as the JDK's
     * {@code HttpURLConnection} that {@code grove} uses). Nothing else is overridden.
     */
    static String method(HttpRequest request) {
        String method = request.method().name();
        return method.equals("POST") && "PATCH".equalsIgnoreCase(request.headers().get(METHOD_OVERRIDE)) ? "PATCH" : method;
    }

    /** The header that makes a {@code POST} a {@code PATCH}. */
    public static final String METHOD_OVERRIDE = "X-HTTP-Method-Override";

    /** How many times a connection was held back: not read while its client did not read its answers. */
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

    /** The content security policy of HTML pages: their own origin only, no inline script, no framing. */
    static final String HTML_POLICY = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            + "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

}
