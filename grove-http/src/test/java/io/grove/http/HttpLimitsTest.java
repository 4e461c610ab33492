package io.grove.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.channel.nio.NioEventLoopGroup;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What an unauthenticated client can do to an HTTP endpoint: half-sent requests and idle
 * connections are closed, connections are capped in all and per address, a request without a
 * token is answered on its head without its body being read, and an oversized body gets the
 * documented JSON 413.
 */
class HttpLimitsTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static final HttpLimits SMALL = new HttpLimits(6, 3, Duration.ofMillis(300), Duration.ofMillis(300),
            Duration.ofMillis(500), 1024);

    final NioEventLoopGroup group = new NioEventLoopGroup(2);
    final List<Socket> sockets = new ArrayList<>();
    ApiServer server;

    /** Routes that need {@code Authorization: Bearer ok} for everything but /healthz, checked on the head. */
    static final class Routes implements Function<ApiRequest, CompletableFuture<ApiResponse>>, HeaderGate {
        volatile int bodiesRead;
        final java.util.concurrent.atomic.AtomicInteger bigAnswers = new java.util.concurrent.atomic.AtomicInteger();

        @Override
        public ApiException checkHead(ApiRequest head) {
            return head.path().equals(List.of("healthz")) || "Bearer ok".equals(head.authorization()) ? null
                    : new ApiException(401, "UNAUTHENTICATED", "a token is needed");
        }

        @Override
        public boolean proves(ApiRequest head) {
            return "Bearer ok".equals(head.authorization());
        }

        /** Frames given to the stream's sink, and whether the server ended the stream. */
        final java.util.concurrent.atomic.AtomicInteger framesGiven = new java.util.concurrent.atomic.AtomicInteger();
        volatile boolean streamEnded;

        @Override
        public CompletableFuture<ApiResponse> apply(ApiRequest request) {
            if (request.path().equals(List.of("stream"))) {
                return CompletableFuture.completedFuture(ApiResponse.stream(sink -> {
                    Thread pusher = new Thread(() -> {
                        // up to 32 MiB of events, 64 KiB each, as long as the stream lasts
                        for (int i = 0; i < 512 && !streamEnded; i++) {
                            sink.accept("data: " + "x".repeat(64 * 1024) + "\n\n");
                            framesGiven.incrementAndGet();
                        }
                    });
                    pusher.start();
                    return () -> streamEnded = true;
                }));
            }
            if (request.path().equals(List.of("big"))) {
                bigAnswers.incrementAndGet();
                return CompletableFuture.completedFuture(ApiResponse.json(200, "\"" + "x".repeat(64 * 1024) + "\""));
            }
            bodiesRead++;
            return CompletableFuture.completedFuture(ApiResponse.json(200, "{\"length\": " + request.body().length() + "}"));
        }
    }

    final Routes routes = new Routes();

    void start(HttpLimits limits) throws InterruptedException {
        server = ApiServer.start(group, group, "127.0.0.1", 0, routes, null, limits);
    }

    @AfterEach
    void stop() throws IOException {
        for (Socket socket : sockets) {
            socket.close();
        }
        if (server != null) {
            server.close();
        }
        group.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS);
    }

    Socket connect() throws IOException {
        Socket socket = new Socket("127.0.0.1", server.port());
        socket.setSoTimeout(10_000);
        sockets.add(socket);
        return socket;
    }

    /** Sends {@code request} on a new connection and reads until the server closes it. */
    String exchange(String request) throws IOException {
        Socket socket = connect();
        send(socket, request);
        return readToClose(socket);
    }

    static void send(Socket socket, String text) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(text.getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
    }

    /** Everything the server sends until it closes the connection. */
    static String readToClose(Socket socket) throws IOException {
        InputStream in = socket.getInputStream();
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }

    /** One response (head and a body of its Content-Length), the connection left open. */
    static String readResponse(Socket socket) throws IOException {
        InputStream in = socket.getInputStream();
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed in the middle of a response: " + head);
            }
            head.append((char) b);
        }
        java.util.regex.Matcher length = java.util.regex.Pattern.compile("(?i)content-length: (\\d+)").matcher(head);
        int bytes = length.find() ? Integer.parseInt(length.group(1)) : 0;
        return head + new String(in.readNBytes(bytes), StandardCharsets.UTF_8);
    }

    static JsonNode body(String response) throws IOException {
        return JSON.readTree(response.substring(response.indexOf("\r\n\r\n") + 4));
    }

    @Test
    void aHalfSentHeadIsClosedAfterTheHeaderTimeout() throws Exception {
        start(SMALL);
        Socket slow = connect();
        send(slow, "GET /healthz HTTP/1.1\r\nHost: x\r\n");
        assertEquals("", readToClose(slow), "closed without an answer");
    }

    @Test
    void aBodyThatDoesNotArriveGets408() throws Exception {
        start(SMALL);
        String response = exchange("POST /x HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ok\r\nContent-Length: 100\r\n\r\nonly part");
        assertTrue(response.startsWith("HTTP/1.1 408"), response);
        assertEquals("REQUEST_TIMEOUT", body(response).get("code").asText());
        assertEquals(0, routes.bodiesRead);
    }

    @Test
    void anIdleKeptAliveConnectionIsClosed() throws Exception {
        start(SMALL);
        String response = exchange("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
        assertTrue(response.startsWith("HTTP/1.1 200"), "answered, then closed when idle: " + response);
    }

    @Test
    void withoutATokenTheBodyIsNeverRead() throws Exception {
        start(HttpLimits.API);
        // a megabyte announced, not one byte of it sent: the answer comes on the head alone
        String response = exchange("POST /api/v1/operations HTTP/1.1\r\nHost: x\r\nContent-Length: 1048576\r\n\r\n");
        assertTrue(response.startsWith("HTTP/1.1 401"), response);
        assertEquals("UNAUTHENTICATED", body(response).get("code").asText());
        assertEquals(0, routes.bodiesRead);
    }

    @Test
    void anOversizedBodyGetsTheDocumentedJson413() throws Exception {
        start(SMALL);
        String response = exchange("POST /x HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ok\r\nContent-Length: 5000\r\n\r\n");
        assertTrue(response.startsWith("HTTP/1.1 413"), response);
        JsonNode error = body(response);
        assertEquals("TOO_LARGE", error.get("code").asText());
        assertEquals(1024, error.get("details").get("max_bytes").asInt());
    }

    @Test
    void connectionsAreCappedPerAddressAndTheRestStillServed() throws Exception {
        start(new HttpLimits(6, 3, Duration.ofSeconds(30), Duration.ofSeconds(30), Duration.ofSeconds(30), 1024));
        List<Socket> held = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Socket socket = connect();
            send(socket, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
            assertTrue(readResponse(socket).startsWith("HTTP/1.1 200"), "kept alive, and counted");
            held.add(socket);
        }
        Socket refused = connect();
        assertEquals("", readToClose(refused), "the fourth connection from one address is closed at once");
        held.get(0).close();
        // once one closes, the address is served again (the close is counted asynchronously)
        String answer = "";
        for (int attempt = 0; attempt < 50 && !answer.startsWith("HTTP/1.1 200"); attempt++) {
            Socket again = connect();
            send(again, "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
            answer = readToClose(again);
        }
        assertTrue(answer.startsWith("HTTP/1.1 200"), answer);
    }

    /** A connection that asked for /healthz without a token, then sent half a head: untrusted and counted. */
    Socket halfSent() throws IOException {
        Socket socket = connect();
        send(socket, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
        assertTrue(readResponse(socket).startsWith("HTTP/1.1 200"));
        send(socket, "GET /x HTTP/1.1\r\nHo");
        return socket;
    }

    /** A connection that sent an authenticated request and was answered: trusted. */
    Socket authenticated() throws IOException {
        Socket socket = connect();
        send(socket, "GET /a HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ok\r\n\r\n");
        assertTrue(readResponse(socket).startsWith("HTTP/1.1 200"));
        return socket;
    }

    /** Whether the server closed the connection (within the socket's timeout; a timeout is not a close). */
    static boolean closed(Socket socket) {
        try {
            return socket.getInputStream().read() < 0;
        } catch (java.net.SocketTimeoutException open) {
            return false;
        } catch (IOException reset) {
            return true;
        }
    }

    @Test
    void atTheCapTheOldestUnprovenConnectionIsShedForANewOne() throws Exception {
        // one address (the test's) may hold more than the cap in all
        start(new HttpLimits(6, 20, Duration.ofSeconds(30), Duration.ofSeconds(30), Duration.ofSeconds(30), 1024));
        List<Socket> users = new ArrayList<>(List.of(authenticated(), authenticated()));
        List<Socket> flood = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            flood.add(halfSent());
        }
        // the cap is full: each new user sheds the oldest half-sent connection, and is served
        for (int i = 0; i < 4; i++) {
            users.add(authenticated());
            assertTrue(closed(flood.get(i)), "half-sent connection " + i + " was shed");
        }
        // every connection has proved itself: a new one is refused, and none of the users is shed
        assertEquals("", readToClose(connect()), "nothing left to shed, so the new connection is closed at once");
        for (Socket user : users) {
            send(user, "GET /a HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ok\r\n\r\n");
            assertTrue(readResponse(user).startsWith("HTTP/1.1 200"), "a proven connection is kept");
        }
    }

    @Test
    void unfinishedBodiesHoldNoMoreThanTheBytesInFlightAndGiveThemBackWhenTheyClose() throws Exception {
        start(new HttpLimits(64, 32, Duration.ofSeconds(30), Duration.ofSeconds(30), Duration.ofSeconds(30), 1024, 2048));
        String head = "POST /x HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ok\r\nContent-Length: 1000\r\n\r\n";
        List<Socket> unfinished = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            Socket socket = connect();
            send(socket, head + "x".repeat(500));
            unfinished.add(socket);
        }
        // two half-sent bodies of 1,000 bytes hold the 2,048 in flight: a third is refused, unread
        // (until the server has read both heads, a third may still find room: it is answered and closed)
        String closing = head.replace("\r\n\r\n", "\r\nConnection: close\r\n\r\n");
        String busy = "";
        for (int attempt = 0; attempt < 50 && !busy.startsWith("HTTP/1.1 503"); attempt++) {
            busy = exchange(closing + "y".repeat(1000));
        }
        assertTrue(busy.startsWith("HTTP/1.1 503"), busy);
        assertEquals("TOO_BUSY", body(busy).get("code").asText());
        assertTrue(exchange("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                .startsWith("HTTP/1.1 200"), "a request without a body is served");
        // one closes: its room is given back, and a whole body is read again
        unfinished.get(0).close();
        String served = "";
        for (int attempt = 0; attempt < 50 && !served.startsWith("HTTP/1.1 200"); attempt++) {
            served = exchange(closing + "z".repeat(1000));
        }
        assertTrue(served.startsWith("HTTP/1.1 200"), served);
        assertEquals(1000, body(served).get("length").asInt());
    }

    @Test
    void anEventStreamsClientThatDoesNotReadIsClosedNotBufferedFor() throws Exception {
        start(new HttpLimits(64, 32, Duration.ofSeconds(30), Duration.ofSeconds(30), Duration.ofSeconds(30), 1024));
        Socket reader = connect();
        send(reader, "GET /stream HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ok\r\n\r\n");
        // never read: the kernel's buffers fill, then the server's outbound buffer, and it closes the stream
        io.grove.testing.Await.until("the server ends the stream of a client that does not read", () -> routes.streamEnded);
        assertTrue(exchange("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").startsWith("HTTP/1.1 200"),
                "others are served");
    }

    @Test
    void aClientThatPipelinesAndNeverReadsIsHeldBackAndOthersAreServed() throws Exception {
        start(new HttpLimits(64, 32, Duration.ofSeconds(30), Duration.ofSeconds(30), Duration.ofSeconds(30), 1024));
        Socket greedy = connect();
        // 2,000 requests for a 64 KiB answer each in one write, and never a read
        send(greedy, "GET /big HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ok\r\n\r\n".repeat(2000));
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (server.heldBack() == 0 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertTrue(server.heldBack() > 0, "the server never stopped for a client that does not read ("
                + routes.bigAnswers.get() + " answers made)");
        for (int i = 0; i < 20; i++) {
            assertTrue(exchange("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                    .startsWith("HTTP/1.1 200"), "another client is answered");
            // answered only as far as the kernel's buffers take them, of 2,000 asked for
            assertTrue(routes.bigAnswers.get() < 500, "answers made for a client that reads none: " + routes.bigAnswers.get());
        }
        // once it reads, the server reads on, finds it pipelined more than it keeps, and closes it
        long received = 0;
        try (InputStream in = greedy.getInputStream()) {
            byte[] buffer = new byte[64 * 1024];
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                received += n;
            }
        } catch (java.net.SocketException reset) {
            // closed with requests of its unread: the kernel resets the connection
        }
        assertTrue(received > 0 && routes.bigAnswers.get() < 500, received + " bytes, " + routes.bigAnswers.get() + " answers");
    }

    @Test
    void aFewPipelinedRequestsAreAnsweredInOrder() throws Exception {
        start(new HttpLimits(64, 32, Duration.ofSeconds(30), Duration.ofSeconds(30), Duration.ofSeconds(30), 1024));
        Socket socket = connect();
        send(socket, ("POST /a HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ok\r\nContent-Length: 1\r\n\r\n1"
                + "POST /b HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ok\r\nContent-Length: 2\r\n\r\n22"
                + "POST /c HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ok\r\nContent-Length: 3\r\n\r\n333"));
        for (int length = 1; length <= 3; length++) {
            assertEquals(length, body(readResponse(socket)).get("length").asInt());
        }
    }
}
