package io.grove.protocol;

import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import java.io.IOException;
import java.nio.file.Path;

/**
 * TLS from PEM files: a certificate chain, its PKCS#8 private key, and the CA that peers'
 * certificates must be signed by.
 *
 * @param certificate this side's certificate chain (PEM)
 * @param key its private key (PKCS#8 PEM)
 * @param ca the certificate authority peers must present certificates of (PEM); {@code null}: no
 *     client certificates asked (server) or the JDK's trust store (client)
 */
public record Tls(Path certificate, Path key, Path ca) {

    /** A server context; with a CA, clients must present a certificate it signed (mutual TLS). */
    public SslContext server() throws IOException {
        try {
            SslContextBuilder builder = SslContextBuilder.forServer(certificate.toFile(), key.toFile());
            if (ca != null) {
                builder.trustManager(ca.toFile()).clientAuth(ClientAuth.REQUIRE);
            }
            return builder.build();
        } catch (Exception e) {
            throw new IOException("cannot set up TLS from " + certificate + " and " + key + ": " + e.getMessage(), e);
        }
    }

    /** A client context presenting this certificate, trusting servers signed by the CA. */
    public SslContext client() throws IOException {
        try {
            SslContextBuilder builder = SslContextBuilder.forClient();
            if (certificate != null && key != null) {
                builder.keyManager(certificate.toFile(), key.toFile());
            }
            if (ca != null) {
                builder.trustManager(ca.toFile());
            }
            return builder.build();
        } catch (Exception e) {
            throw new IOException("cannot set up TLS from " + certificate + " and " + key + ": " + e.getMessage(), e);
        }
    }
}
