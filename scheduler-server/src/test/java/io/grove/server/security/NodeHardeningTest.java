package io.grove.server.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.grove.core.resource.Resources;
import io.grove.protocol.ErrorCode;
import io.grove.protocol.ErrorReply;
import io.grove.protocol.Handshake;
import io.grove.protocol.Message;
import io.grove.protocol.NodeClient;
import io.grove.protocol.Welcome;
import io.grove.server.Clock;
import io.grove.server.DaemonSettings;
import io.grove.server.SchedulerDaemon;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a peer without credentials can do on the node port, and two agents with one id. */
class NodeHardeningTest {

    static final Duration TIMEOUT = Duration.ofSeconds(10);
    static final Resources LIMITS = new Resources(2, 2, 0, 4e9, 0);

    SchedulerDaemon start(Path dir, Security security, String bind) throws Exception {
        Files.writeString(dir.resolve("pools.yaml"), "pool_trees:\n  default:\n    pools:\n      a: {}\n");
        Files.writeString(dir.resolve("tokens.yaml"), "tokens:\n  - {token: t0k3n-of-alice-0123456789, user: alice}\n");
        Files.writeString(dir.resolve("node-token"), "n0de-t0ken-0123456789abcdef\n");
        DaemonSettings settings = DaemonSettings.defaults(dir.resolve("pools.yaml"), dir.resolve("data")).withPorts(0, 0)
                .withBindAddress(bind).withSecurity(security);
        return SchedulerDaemon.start(settings, Clock.SYSTEM);
    }

    /** Sends one raw frame and reads the answer frame as JSON. */
    static JsonNode rawExchange(int port, byte[] body) throws Exception {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            out.writeInt(body.length);
            out.write(body);
            out.flush();
            DataInputStream in = new DataInputStream(socket.getInputStream());
            byte[] reply = new byte[in.readInt()];
            in.readFully(reply);
            return new ObjectMapper().readTree(reply);
        }
    }

    @Test
    void aHugeNodeIdIsRefusedByTheDecoderAndTheAuditLogStaysSmall(@TempDir Path dir) throws Exception {
        Security security = new Security(false, dir.resolve("tokens.yaml"), dir.resolve("node-token"), null);
        try (SchedulerDaemon daemon = start(dir, security, "127.0.0.1")) {
            String id = "x".repeat(4 << 20);
            byte[] frame = ("{\"type\": \"handshake\", \"protocol_version\": 1, \"node_id\": \"" + id
                    + "\", \"resource_limits\": {\"user_slots\": 1, \"cpu\": 1, \"gpu\": 0, \"memory\": 1, \"network\": 0},"
                    + " \"node_token\": \"wrong\"}").getBytes(StandardCharsets.UTF_8);
            JsonNode reply = rawExchange(daemon.nodePort(), frame);
            assertEquals("invalid_message", reply.get("code").asText(), reply.toString());
            assertTrue(reply.get("message").asText().contains("'node_id' is " + id.length() + " characters long"),
                    reply.toString());
            assertTrue(reply.toString().length() < 2000, "the answer does not echo the id");
        }
        assertTrue(Files.size(dir.resolve("data").resolve("audit.log")) < 10_000, "the audit log stays small");
    }

    @Test
    void aFrameNestedTooDeepGetsAnErrorFrameAndTheConnectionGoesOn(@TempDir Path dir) throws Exception {
        try (SchedulerDaemon daemon = start(dir, Security.INSECURE_LOCAL, "127.0.0.1")) {
            String deep = "[".repeat(100_000) + "]".repeat(100_000);
            JsonNode reply = rawExchange(daemon.nodePort(),
                    ("{\"tags\": " + deep + ", \"type\": \"handshake\"}").getBytes(StandardCharsets.UTF_8));
            assertEquals("error", reply.get("type").asText(), reply.toString());
            assertTrue(reply.get("message").asText().contains("nesting depth"), reply.toString());
        }
    }

    @Test
    void aSecondHandshakeWithTheIdOfALiveNodeIsRefused(@TempDir Path dir) throws Exception {
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        try (SchedulerDaemon daemon = start(dir, Security.INSECURE_LOCAL, "127.0.0.1")) {
            NodeClient first = NodeClient.connect(group, "127.0.0.1", daemon.nodePort(), TIMEOUT, Message.DEFAULT_MAX_FRAME_BYTES);
            NodeClient second = NodeClient.connect(group, "127.0.0.1", daemon.nodePort(), TIMEOUT, Message.DEFAULT_MAX_FRAME_BYTES);
            assertInstanceOf(Welcome.class, first.request(new Handshake(Message.VERSION, "n1", "host-a:7078", List.of(),
                    LIMITS, List.of(), null), TIMEOUT).get());
            Message refused = second.request(new Handshake(Message.VERSION, "n1", "host-b:7078", List.of(), LIMITS,
                    List.of(), null), TIMEOUT).get();
            assertEquals(ErrorCode.NODE_ID_IN_USE, ((ErrorReply) refused).code(), refused.toString());
            assertTrue(((ErrorReply) refused).fatal());
            // the first session's address stands
            String nodes = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                    java.net.URI.create("http://127.0.0.1:" + daemon.httpPort() + "/api/v1/nodes"))
                    .header("X-Grove-User", "alice").build(), java.net.http.HttpResponse.BodyHandlers.ofString()).body();
            assertTrue(nodes.contains("host-a:7078") && !nodes.contains("host-b:7078"), nodes);
            // once the first connection is gone, the id is free again
            first.close();
            Message welcome = null;
            for (int attempt = 0; attempt < 100 && !(welcome instanceof Welcome); attempt++) {
                NodeClient third = NodeClient.connect(group, "127.0.0.1", daemon.nodePort(), TIMEOUT,
                        Message.DEFAULT_MAX_FRAME_BYTES);
                welcome = third.request(new Handshake(Message.VERSION, "n1", "host-b:7078", List.of(), LIMITS, List.of(),
                        null), TIMEOUT).get();
            }
            assertInstanceOf(Welcome.class, welcome);
        } finally {
            group.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS);
        }
    }

    @Test
    void connectionsToTheNodePortAreCappedPerAddress(@TempDir Path dir) throws Exception {
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        try (SchedulerDaemon daemon = start(dir, Security.INSECURE_LOCAL, "127.0.0.1")) {
            for (int i = 0; i < io.grove.server.net.NodeEndpoint.MAX_PER_ADDRESS; i++) {
                NodeClient node = NodeClient.connect(group, "127.0.0.1", daemon.nodePort(), TIMEOUT,
                        Message.DEFAULT_MAX_FRAME_BYTES);
                assertInstanceOf(Welcome.class, node.request(new Handshake(Message.VERSION, "n" + i, "", List.of(), LIMITS,
                        List.of(), null), TIMEOUT).get());
            }
            try (Socket oneTooMany = new Socket("127.0.0.1", daemon.nodePort())) {
                oneTooMany.setSoTimeout(10_000);
                assertEquals(-1, oneTooMany.getInputStream().read(), "closed as soon as it is accepted");
            }
        } finally {
            group.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS);
        }
    }

    @Test
    void listeningBeyondLoopbackNeedsNodesToAuthenticate(@TempDir Path dir) {
        Security noNodeAuth = new Security(false, dir.resolve("tokens.yaml"), null, null);
        SchedulerDaemon.DaemonException refused = assertThrows(SchedulerDaemon.DaemonException.class,
                () -> start(dir, noNodeAuth, "0.0.0.0").close());
        assertTrue(refused.getMessage().contains("no node authentication"), refused.getMessage());
    }

    @Test
    void unauthenticatedNodesBeyondLoopbackOnlyWhenAskedFor(@TempDir Path dir) throws Exception {
        Security allowed = new Security(false, dir.resolve("tokens.yaml"), null, null).withUnauthenticatedNodes(true);
        try (SchedulerDaemon daemon = start(dir, allowed, "0.0.0.0")) {
            assertTrue(daemon.nodePort() > 0);
        }
    }

    @Test
    void aPeerThatPipelinesFramesAndNeverReadsIsHeldBackWhileNodesAndTheApiAreServed(@TempDir Path dir)
            throws Exception {
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        try (SchedulerDaemon daemon = start(dir, Security.INSECURE_LOCAL, "127.0.0.1");
                Socket greedy = new Socket("127.0.0.1", daemon.nodePort())) {
            // 200,000 heartbeats before any handshake, each answered by an error frame, and never a read
            byte[] body = "{\"type\": \"heartbeat\", \"node_id\": \"x\"}".getBytes(StandardCharsets.UTF_8);
            java.io.ByteArrayOutputStream frames = new java.io.ByteArrayOutputStream();
            DataOutputStream framing = new DataOutputStream(frames);
            for (int i = 0; i < 200_000; i++) {
                framing.writeInt(body.length);
                framing.write(body);
            }
            Thread writer = new Thread(() -> {
                try {
                    greedy.getOutputStream().write(frames.toByteArray());
                } catch (java.io.IOException closed) {
                    // the scheduler closed the connection, or the test did
                }
            });
            writer.setDaemon(true);
            writer.start();
            io.grove.testing.Await.until("the node port stops reading a peer that does not read",
                    () -> daemon.nodeConnectionsHeldBack() > 0);
            // a real node still shakes hands, and the API still answers
            NodeClient node = NodeClient.connect(group, "127.0.0.1", daemon.nodePort(), TIMEOUT,
                    Message.DEFAULT_MAX_FRAME_BYTES);
            assertInstanceOf(Welcome.class, node.request(new Handshake(Message.VERSION, "n1", "", List.of(), LIMITS,
                    List.of(), null), TIMEOUT).get());
            int health = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                    java.net.URI.create("http://127.0.0.1:" + daemon.httpPort() + "/healthz"))
                    .timeout(TIMEOUT).build(), java.net.http.HttpResponse.BodyHandlers.discarding()).statusCode();
            assertEquals(200, health);
            // once it reads, the scheduler reads on, finds more frames waiting than it keeps, and closes:
            // it never made the 200,000 replies
            long received = 0;
            greedy.setSoTimeout(20_000);
            try {
                byte[] buffer = new byte[64 * 1024];
                for (int n = greedy.getInputStream().read(buffer); n >= 0; n = greedy.getInputStream().read(buffer)) {
                    received += n;
                }
            } catch (java.net.SocketException reset) {
                // closed with frames of its unread: the kernel resets the connection
            }
            assertTrue(received > 0 && received < 100L * 200_000 / 4, received + " bytes of replies");
        } finally {
            group.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS);
        }
    }

    @Test
    void aNodeAddressThatIsNotHostAndPortIsRefusedAtTheHandshake(@TempDir Path dir) throws Exception {
        try (SchedulerDaemon daemon = start(dir, Security.INSECURE_LOCAL, "127.0.0.1")) {
            JsonNode reply = rawExchange(daemon.nodePort(), ("{\"type\": \"handshake\", \"protocol_version\": 1, "
                    + "\"node_id\": \"n1\", \"address\": \"127.0.0.1:41097/internal/admin?steal=\", \"resource_limits\": "
                    + "{\"user_slots\": 1, \"cpu\": 1, \"gpu\": 0, \"memory\": 1, \"network\": 0}}")
                    .getBytes(StandardCharsets.UTF_8));
            assertEquals("invalid_message", reply.get("code").asText(), reply.toString());
            assertTrue(reply.get("message").asText().contains("'address' must be host:port"), reply.toString());
        }
        assertEquals("http://[::1]:7078/api/v1/jobs/j/logs?stream=stdout&offset=0", io.grove.server.http.JobRoutesAccess
                .agentUri("::1:7078", "/api/v1/jobs/j/logs", "stream=stdout&offset=0").toString());
    }
}
