package io.grove.server.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.core.resource.Resources;
import io.grove.protocol.Handshake;
import io.grove.protocol.Message;
import io.grove.protocol.NodeClient;
import io.grove.protocol.Tls;
import io.grove.protocol.Welcome;
import io.grove.server.Clock;
import io.grove.server.DaemonSettings;
import io.grove.server.SchedulerDaemon;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Mutual TLS on the node port and HTTPS on the API, with certificates made by openssl as
 * docs/security.md shows: a node with a certificate of the cluster's CA joins; one with another
 * CA's certificate, or none, is refused.
 */
class TlsTest {

    static void openssl(Path dir, String... args) throws Exception {
        Process process = new ProcessBuilder(java.util.stream.Stream.concat(java.util.stream.Stream.of("openssl"),
                java.util.Arrays.stream(args)).toList()).directory(dir.toFile()).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IOException("openssl " + String.join(" ", args) + ":\n" + output);
        }
    }

    /** A CA, and certificates it signs: as in docs/security.md. */
    static void certificates(Path dir, String ca, String... names) throws Exception {
        openssl(dir, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", ca + ".key", "-out", ca + ".pem",
                "-days", "2", "-subj", "/CN=" + ca);
        Files.writeString(dir.resolve("san.ext"), "subjectAltName=DNS:localhost,IP:127.0.0.1\n");
        for (String name : names) {
            openssl(dir, "req", "-newkey", "rsa:2048", "-nodes", "-keyout", name + ".key", "-out", name + ".csr",
                    "-subj", "/CN=" + name);
            openssl(dir, "x509", "-req", "-in", name + ".csr", "-CA", ca + ".pem", "-CAkey", ca + ".key",
                    "-CAcreateserial", "-out", name + ".pem", "-days", "2", "-extfile", "san.ext");
        }
    }

    @Test
    void nodesNeedACertificateOfTheClustersCaAndTheApiSpeaksHttps(@TempDir Path dir) throws Exception {
        certificates(dir, "ca", "scheduler", "node");
        certificates(dir, "rogue-ca", "rogue-node");
        Files.writeString(dir.resolve("pools.yaml"), "pool_trees: {physical: {pools: {a: {}}}}\n");
        Tls server = new Tls(dir.resolve("scheduler.pem"), dir.resolve("scheduler.key"), dir.resolve("ca.pem"));
        DaemonSettings settings = DaemonSettings.defaults(dir.resolve("pools.yaml"), dir.resolve("data")).withPorts(0, 0)
                .withSecurity(Security.INSECURE_LOCAL.withTls(server,
                        new Tls(dir.resolve("scheduler.pem"), dir.resolve("scheduler.key"), null)));
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        Resources limits = new Resources(1, 1, 0, 1L << 30, 0);
        try (SchedulerDaemon daemon = SchedulerDaemon.start(settings, Clock.SYSTEM)) {
            Tls node = new Tls(dir.resolve("node.pem"), dir.resolve("node.key"), dir.resolve("ca.pem"));
            try (NodeClient client = NodeClient.connect(group, "127.0.0.1", daemon.nodePort(), Duration.ofSeconds(10),
                    Message.DEFAULT_MAX_FRAME_BYTES, node.client())) {
                assertInstanceOf(Welcome.class, client.request(new Handshake(1, "n1", "", List.of(), limits, List.of(), null),
                        Duration.ofSeconds(10)).get(20, TimeUnit.SECONDS));
            }
            Tls rogue = new Tls(dir.resolve("rogue-node.pem"), dir.resolve("rogue-node.key"), dir.resolve("ca.pem"));
            Tls anonymous = new Tls(null, null, dir.resolve("ca.pem"));
            for (Tls refused : List.of(rogue, anonymous)) {
                assertThrows(Exception.class, () -> {
                    try (NodeClient client = NodeClient.connect(group, "127.0.0.1", daemon.nodePort(), Duration.ofSeconds(10),
                            Message.DEFAULT_MAX_FRAME_BYTES, refused.client())) {
                        client.request(new Handshake(1, "intruder", "", List.of(), limits, List.of(), null),
                                Duration.ofSeconds(10)).get(20, TimeUnit.SECONDS);
                    }
                }, "a node without a certificate of the cluster's CA gets nowhere");
            }
            Tls wrongServer = new Tls(dir.resolve("node.pem"), dir.resolve("node.key"), dir.resolve("rogue-ca.pem"));
            assertThrows(IOException.class, () -> NodeClient.connect(group, "127.0.0.1", daemon.nodePort(),
                    Duration.ofSeconds(10), Message.DEFAULT_MAX_FRAME_BYTES, wrongServer.client()),
                    "a node does not talk to a scheduler its CA did not sign");

            HttpClient https = HttpClient.newBuilder().sslContext(trusting(dir.resolve("ca.pem"))).build();
            HttpResponse<String> health = https.send(HttpRequest.newBuilder(
                    URI.create("https://localhost:" + daemon.httpPort() + "/healthz")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, health.statusCode());
            assertTrue(health.body().contains("ok"));
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
    }

    static SSLContext trusting(Path caPem) throws Exception {
        KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
        store.load(null, null);
        try (InputStream in = Files.newInputStream(caPem)) {
            store.setCertificateEntry("ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(store);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trust.getTrustManagers(), null);
        return context;
    }
}
