package io.grove.server.security;

import io.grove.protocol.Tls;
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
 * @param nodeTls TLS on the node port, mutual when it has a CA (nodes need a certificate it signed);
 *     {@code null} for none
 * @param httpTls TLS on the HTTP API; {@code null} for none
 * @param allowUnauthenticatedNodes a daemon listening beyond loopback accepts nodes with neither a
 *     node token nor mutual TLS (otherwise it refuses to start so)
 * @param oidc JWT sign-in through the organisation's identity provider, or {@code null}
 */
public record Security(boolean insecureLocal, Path tokensFile, Path nodeTokenFile, Path auditLog,
        Tls nodeTls, Tls httpTls, boolean allowUnauthenticatedNodes, Oidc oidc) {

    /** No authentication, loopback only. */
    public static final Security INSECURE_LOCAL = new Security(true, null, null, null);

    public Security(boolean insecureLocal, Path tokensFile, Path nodeTokenFile, Path auditLog) {
        this(insecureLocal, tokensFile, nodeTokenFile, auditLog, null, null, false, null);
    }

    public Security withTls(Tls node, Tls http) {
        return new Security(insecureLocal, tokensFile, nodeTokenFile, auditLog, node, http, allowUnauthenticatedNodes, oidc);
    }

    /** Nodes may join without a node token or mutual TLS even beyond loopback. */
    public Security withUnauthenticatedNodes(boolean allowed) {
        return new Security(insecureLocal, tokensFile, nodeTokenFile, auditLog, nodeTls, httpTls, allowed, oidc);
    }

    /** Users may also sign in with their identity provider's JWTs ({@code null}: only the tokens file). */
    public Security withOidc(Oidc sso) {
        return new Security(insecureLocal, tokensFile, nodeTokenFile, auditLog, nodeTls, httpTls,
                allowUnauthenticatedNodes, sso);
    }

    /** Whether users authenticate: with the tokens file, or the identity provider's JWTs. */
    public boolean usersAuthenticated() {
        return tokensFile != null || oidc != null;
    }

    /** Whether nodes must prove who they are: a node token, or mutual TLS. */
    public boolean nodesAuthenticated() {
        return nodeTokenFile != null || (nodeTls != null && nodeTls.ca() != null);
    }
}
