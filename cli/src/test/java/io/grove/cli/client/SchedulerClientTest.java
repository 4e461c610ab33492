package io.grove.cli.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.api.OperationDetails;
import io.grove.api.OperationSpecBody;
import io.grove.api.OperationSummary;
import io.grove.api.OperationUpdate;
import io.grove.api.Quantity;
import io.grove.server.Clock;
import io.grove.server.DaemonSettings;
import io.grove.server.SchedulerDaemon;
import io.grove.server.security.Security;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commands' HTTP path against a real scheduler with tokens: answers and refusals come back as
 * the scheduler gave them (a body's 401 too, not a retry error of the HTTP stack), a PATCH goes
 * through as one, and a scheduler that is not there is said to be unreachable.
 */
class SchedulerClientTest {

    static final String TOKEN = "alice-token-0123456789abcdef";

    static SchedulerClient as(String base, String token) {
        return new SchedulerClient(new Target(URI.create(base), "alice", "test", token));
    }

    static OperationSpecBody spec() {
        return OperationSpecBody.of(null, "etl", new OperationSpecBody.Task(1, "sleep 60", Quantity.of(1),
                Quantity.of("64Mi"), null, null, null));
    }

    @Test
    void answersRefusalsAndPatchesAsTheSchedulerGivesThem(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("pools.yaml"), "pool_trees:\n  physical:\n    pools:\n      etl: {}\n");
        Files.writeString(dir.resolve("tokens.yaml"), "tokens:\n  - {token: " + TOKEN + ", user: alice}\n");
        Files.writeString(dir.resolve("node-token"), "node-token-0123456789abcdef\n");
        DaemonSettings settings = DaemonSettings.defaults(dir.resolve("pools.yaml"), dir.resolve("data")).withPorts(0, 0)
                .withSecurity(new Security(false, dir.resolve("tokens.yaml"), dir.resolve("node-token"), null));
        try (SchedulerDaemon daemon = SchedulerDaemon.start(settings, Clock.SYSTEM)) {
            String base = "http://127.0.0.1:" + daemon.httpPort();
            // without a token: the scheduler's 401, for a body sent and for none
            CliException post = assertThrows(CliException.class,
                    () -> as(base, null).post("/operations", spec(), OperationSummary.class));
            assertEquals(ExitCodes.REFUSED, post.exitCode(), post.getMessage());
            assertTrue(post.getMessage().toLowerCase().contains("token"), post.getMessage());
            CliException get = assertThrows(CliException.class, () -> as(base, null).get("/operations/op-1", OperationDetails.class));
            assertEquals(ExitCodes.REFUSED, get.exitCode(), get.getMessage());

            SchedulerClient alice = as(base, TOKEN);
            OperationSummary op = alice.post("/operations", spec(), OperationSummary.class);
            OperationDetails updated = alice.patch("/operations/" + op.id(), new OperationUpdate(3.0, null, null, null),
                    OperationDetails.class);
            assertEquals(3.0, updated.weight(), 1e-9);
            CliException missing = assertThrows(CliException.class, () -> alice.get("/operations/op-99", OperationDetails.class));
            assertEquals(ExitCodes.NOT_FOUND, missing.exitCode(), missing.getMessage());
            alice.post("/operations/" + op.id() + "/abort", null, null, OperationSummary.class);
        }
    }

    @Test
    void aSchedulerThatIsNotThereIsUnreachable() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        CliException e = assertThrows(CliException.class,
                () -> as("http://127.0.0.1:" + port, null).get("/operations", OperationSummary[].class));
        assertEquals(ExitCodes.UNREACHABLE, e.exitCode(), e.getMessage());
        assertTrue(e.getMessage().startsWith("cannot reach the scheduler at http://127.0.0.1:" + port), e.getMessage());
    }

    @Test
    void eachChangeCarriesAKeyOfItsOwn() throws Exception {
        List<String> keys = Collections.synchronizedList(new ArrayList<>());
        try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread answering = new Thread(() -> {
                while (!server.isClosed()) {
                    try (Socket socket = server.accept()) {
                        BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(),
                                StandardCharsets.US_ASCII));
                        String requestLine = in.readLine();
                        for (String header = in.readLine(); header != null && !header.isEmpty(); header = in.readLine()) {
                            if (header.toLowerCase(Locale.ROOT).startsWith("idempotency-key:")) {
                                keys.add(requestLine.split(" ")[0] + " " + header.substring(16).strip());
                            }
                        }
                        socket.getOutputStream().write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                                + "Content-Length: 2\r\nConnection: close\r\n\r\n{}").getBytes(StandardCharsets.US_ASCII));
                    } catch (IOException e) {
                        // closed
                    }
                }
            });
            answering.setDaemon(true);
            answering.start();
            SchedulerClient client = as("http://127.0.0.1:" + server.getLocalPort(), null);
            client.get("/operations/op-1", OperationDetails.class);
            client.post("/operations", spec(), OperationSummary.class);
            client.post("/operations", spec(), OperationSummary.class);
            client.patch("/operations/op-1", new OperationUpdate(2.0, null, null, null), OperationDetails.class);
        }
        assertEquals(3, keys.size(), "a key on each change, none on the read: " + keys);
        assertEquals(3, keys.stream().map(k -> k.split(" ")[1]).distinct().count(), keys.toString());
        assertTrue(keys.stream().allMatch(k -> k.startsWith("POST grove-")), keys.toString());
    }
}
