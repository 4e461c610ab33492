package io.grove.server.security;

import java.nio.file.Path;

/**
 * How the daemon authenticates.
 *
 * @param insecureLocal no authentication: the user is whoever {@code X-Grove-User} says; only on
 *     loopback ({@code grove local} and embedded use)
 * @param tokensFile users' bearer tokens (token → user and groups), reloaded when it changes
 * @param nodeTokenFile the cluster's node token; nodes must present it in their handshake
 * @param auditLog where submits, aborts, updates, reloads and refusals are recorded; {@code null}
 *     for the data directory's {@code audit.log}
 */
public record Security(boolean insecureLocal, Path tokensFile, Path nodeTokenFile, Path auditLog) {

    /** No authentication, loopback only. */
    public static final Security INSECURE_LOCAL = new Security(true, null, null, null);

    public Security withNodeToken(Path file) {
        return new Security(insecureLocal, tokensFile, file, auditLog);
    }
}
