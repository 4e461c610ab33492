package io.grove.server.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.grove.core.resource.Resources;
import io.grove.http.Secrets;
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
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every refusal path of users and nodes, the allowed paths, and the audit log. */
class SecurityTest {

    static final String ALICE = "alice-token-0123456789abcdef";
    static final String BOB = "bob-token-0123456789abcdef";
    static final String ADMIN = "admin-token-0123456789abcdef";
    static final String NODE_TOKEN = "node-token-0123456789abcdef";

    static final String POOLS = """
            admins: [group:ops]
            default_tree: physical
            pool_trees:
              physical:
                pools:
                  prod:
                    acl: {submit: [group:etl], administer: [alice]}
                    pools:
                      nightly: {}
                  open: {}
            """;

    final HttpClient http = HttpClient.newHttpClient();
    final ObjectMapper json = new ObjectMapper();

    SchedulerDaemon start(Path dir) throws Exception {
        Files.writeString(dir.resolve("pools.yaml"), POOLS);
        Files.writeString(dir.resolve("tokens.yaml"), "tokens:\n"
                + "  - {token: " + ALICE + ", user: alice, groups: [etl]}\n"
                + "  - {sha256: " + Secrets.hash(BOB) + ", user: bob}\n"
                + "  - {token: " + ADMIN + ", user: root-admin, groups: [ops]}\n");
        Files.writeString(dir.resolve("node-token"), NODE_TOKEN + "\n");
        DaemonSettings settings = DaemonSettings.defaults(dir.resolve("pools.yaml"), dir.resolve("data")).withPorts(0, 0)
                .withSecurity(new Security(false, dir.resolve("tokens.yaml"), dir.resolve("node-token"), null));
        return SchedulerDaemon.start(settings, Clock.SYSTEM);
    }

    record Reply(int status, JsonNode body) {
    }

    Reply call(SchedulerDaemon daemon, String method, String path, String token, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + daemon.httpPort() + path))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .header("X-Grove-User", "mallory");   // ignored once tokens are on
        if (token != null) {
            request.header("Authorization", token);
        }
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        return new Reply(response.statusCode(), json.readTree(response.body()));
    }

    static String bearer(String token) {
        return "Bearer " + token;
    }

    static String spec(String pool) {
        return "{\"pool\": \"" + pool + "\", \"tasks\": {\"main\": {\"job_count\": 1, \"cpu\": 1, \"command\": \"true\"}}}";
    }

    @Test
    void usersNeedATokenAndTheRulesOfTheirPools(@TempDir Path dir) throws Exception {
        try (SchedulerDaemon daemon = start(dir)) {
            assertEquals(200, call(daemon, "GET", "/healthz", null, null).status(), "health needs no token");
            Reply none = call(daemon, "GET", "/api/v1/operations", null, null);
            assertEquals(401, none.status());
            assertEquals("UNAUTHENTICATED", none.body().get("code").asText());
            assertEquals(401, call(daemon, "GET", "/api/v1/operations", bearer("not-a-known-token-at-all"), null).status());
            assertEquals(401, call(daemon, "GET", "/api/v1/operations", "Basic " + ALICE, null).status());

            Reply forbidden = call(daemon, "POST", "/api/v1/operations", bearer(BOB), spec("nightly"));
            assertEquals(403, forbidden.status());
            assertEquals("FORBIDDEN", forbidden.body().get("code").asText());
            assertTrue(forbidden.body().get("message").asText().contains(
                    "user bob may not submit to pool \"nightly\" in tree \"physical\": pool \"prod\" in tree \"physical\" lets "
                            + "[group:etl] submit"), forbidden.body().toString());

            Reply created = call(daemon, "POST", "/api/v1/operations", bearer(ALICE), spec("nightly"));
            assertEquals(201, created.status(), created.body().toString());
            String op = created.body().get("id").asText();
            assertEquals("alice", created.body().get("user").asText(), "the token's user, not X-Grove-User");
            assertEquals(201, call(daemon, "POST", "/api/v1/operations", bearer(BOB), spec("open")).status());

            Reply notHis = call(daemon, "POST", "/api/v1/operations/" + op + "/abort", bearer(BOB), null);
            assertEquals(403, notHis.status());
            assertTrue(notHis.body().get("message").asText().contains("user bob may not abort " + op + " of alice"),
                    notHis.body().toString());
            assertEquals(403, call(daemon, "PATCH", "/api/v1/operations/" + op, bearer(BOB), "{\"weight\": 2}").status());
            assertEquals(200, call(daemon, "PATCH", "/api/v1/operations/" + op, bearer(ALICE), "{\"weight\": 2}").status());
            // refused after the ACL let it through: audited as refused, not allowed
            assertEquals(400, call(daemon, "PATCH", "/api/v1/operations/" + op, bearer(ALICE), "{\"weight\": 1e300}").status());
            assertEquals(200, call(daemon, "POST", "/api/v1/operations/" + op + "/abort", bearer(ADMIN), null).status(),
                    "a cluster admin may abort anyone's");

            Reply reload = call(daemon, "POST", "/api/v1/config/reload", bearer(BOB), null);
            assertEquals(403, reload.status());
            assertTrue(reload.body().get("message").asText().contains("only the cluster admins [group:ops]"));
            assertEquals(200, call(daemon, "POST", "/api/v1/config/reload", bearer(ADMIN), null).status());

            List<String> audit = Files.readAllLines(dir.resolve("data/audit.log"));
            assertTrue(audit.stream().anyMatch(l -> l.contains("\"action\":\"update\"") && l.contains("\"outcome\":\"refused\"")
                    && l.contains("\"user\":\"alice\"")), audit.toString());
            assertTrue(audit.stream().noneMatch(l -> l.contains("\"action\":\"update\"") && l.contains("1e300")
                    && l.contains("\"outcome\":\"allowed\"")), audit.toString());
            assertTrue(audit.stream().anyMatch(l -> l.contains("\"outcome\":\"refused\"") && l.contains("401")), audit.toString());
            assertTrue(audit.stream().anyMatch(l -> l.contains("\"user\":\"bob\"") && l.contains("\"action\":\"submit\"")
                    && l.contains("\"outcome\":\"refused\"") && l.contains("127.0.0.1")), audit.toString());
            assertTrue(audit.stream().anyMatch(l -> l.contains("\"user\":\"alice\"") && l.contains("\"action\":\"submit\"")
                    && l.contains("\"target\":\"" + op + "\"") && l.contains("\"outcome\":\"allowed\"")), audit.toString());
            assertTrue(audit.stream().anyMatch(l -> l.contains("\"action\":\"abort\"") && l.contains("root-admin")));
            assertTrue(audit.stream().anyMatch(l -> l.contains("\"action\":\"reload\"") && l.contains("\"user\":\"bob\"")
                    && l.contains("refused")));
        }
    }

    @Test
    void nodesNeedTheNodeToken(@TempDir Path dir) throws Exception {
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        try (SchedulerDaemon daemon = start(dir)) {
            Resources limits = new Resources(4, 4, 0, 8L << 30, 0);
            for (String token : new String[] {null, "wrong-node-token-0123456789"}) {
                try (NodeClient client = NodeClient.connect(group, "127.0.0.1", daemon.nodePort(), Duration.ofSeconds(5),
                        Message.DEFAULT_MAX_FRAME_BYTES)) {
                    Message reply = client.request(new Handshake(1, "n-" + token, "", List.of(), limits, List.of(), token),
                            Duration.ofSeconds(5)).get(10, TimeUnit.SECONDS);
                    ErrorReply refused = assertInstanceOf(ErrorReply.class, reply);
                    assertEquals(ErrorCode.NODE_REFUSED, refused.code());
                    assertTrue(refused.fatal());
                }
            }
            try (NodeClient client = NodeClient.connect(group, "127.0.0.1", daemon.nodePort(), Duration.ofSeconds(5),
                    Message.DEFAULT_MAX_FRAME_BYTES)) {
                assertInstanceOf(Welcome.class, client.request(new Handshake(1, "n1", "", List.of(), limits, List.of(),
                        NODE_TOKEN), Duration.ofSeconds(5)).get(10, TimeUnit.SECONDS));
            }
            assertTrue(Files.readString(dir.resolve("data/audit.log")).contains("\"action\":\"node handshake\""));
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
    }

    @Test
    void theDaemonRefusesToStartOpenBeyondLoopback(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("pools.yaml"), POOLS);
        DaemonSettings open = DaemonSettings.defaults(dir.resolve("pools.yaml"), dir.resolve("data")).withPorts(0, 0)
                .withBindAddress("0.0.0.0");
        SchedulerDaemon.DaemonException wide = assertThrows(SchedulerDaemon.DaemonException.class,
                () -> SchedulerDaemon.start(open, Clock.SYSTEM));
        assertTrue(wide.getMessage().contains("insecure local mode binds to loopback only"), wide.getMessage());
        DaemonSettings noTokens = open.withBindAddress("127.0.0.1").withSecurity(new Security(false, null, null, null));
        SchedulerDaemon.DaemonException missing = assertThrows(SchedulerDaemon.DaemonException.class,
                () -> SchedulerDaemon.start(noTokens, Clock.SYSTEM));
        assertTrue(missing.getMessage().contains("no tokens file"), missing.getMessage());
    }

    /** Random Authorization headers never authenticate and never break the server. */
    @Test
    void fuzzedAuthorizationHeaders(@TempDir Path dir) throws Exception {
        Random random = new Random(42);
        try (SchedulerDaemon daemon = start(dir)) {
            for (int i = 0; i < 300; i++) {
                StringBuilder header = new StringBuilder(random.nextBoolean() ? "Bearer " : random.nextBoolean() ? "bearer" : "");
                int length = random.nextInt(80);
                for (int c = 0; c < length; c++) {
                    header.append((char) (0x20 + random.nextInt(0x5f)));
                }
                if (random.nextInt(10) == 0) {
                    header.append(ALICE.substring(0, random.nextInt(ALICE.length())));
                }
                Reply reply = call(daemon, "GET", "/api/v1/operations", header.toString().strip(), null);
                assertEquals(401, reply.status(), "header '" + header + "' (seed 42, case " + i + ")");
            }
            assertEquals(200, call(daemon, "GET", "/api/v1/operations", bearer(ALICE), null).status());
        }
    }

    @Test
    void theTokensFileIsReloadedWhenItChangesAndABrokenOneIsRefused(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("tokens.yaml");
        Files.writeString(file, "tokens:\n  - {token: " + ALICE + ", user: alice}\n");
        TokenStore store = TokenStore.load(file, Duration.ZERO);
        assertEquals("alice", store.identify(ALICE).user());
        Files.writeString(file, "tokens:\n  - {token: " + BOB + ", user: bob, groups: [etl]}\n");
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(5)));
        assertEquals(List.of("etl"), store.identify(BOB).groups());
        assertEquals(null, store.identify(ALICE), "the old token is gone");
        Files.writeString(file, "tokens: [{user: nobody}]\n");
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(10)));
        assertEquals("bob", store.identify(BOB).user(), "a broken file leaves the tokens in force");
        java.io.IOException bad = assertThrows(java.io.IOException.class, () -> TokenStore.load(file));
        assertTrue(bad.getMessage().contains("tokens[0]: give 'token'"), bad.getMessage());
    }
}
