package io.grove.server.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;
import io.grove.core.pool.AccessControl.Identity;
import io.grove.server.security.Identities.Unauthenticated;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * JWT sign-in with keys made here (RS256 and ES256): what passes, every refusal and what it says,
 * keys from a file and from a JWKS served on loopback, rotation, expiry on an injected clock.
 */
class JwtIdentitiesTest {

    static final String ISSUER = "https://id.example.org/realms/grove";
    static final String AUDIENCE = "grove-scheduler";
    static final Instant NOW = Instant.parse("2026-11-27T12:00:00Z");

    static final RSAKey RSA = generateRsa("r1");
    static final ECKey EC = generateEc("e1");

    final AtomicReference<Instant> now = new AtomicReference<>(NOW);

    static RSAKey generateRsa(String kid) {
        try {
            return new RSAKeyGenerator(2048).keyID(kid).generate();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static ECKey generateEc(String kid) {
        try {
            return new ECKeyGenerator(Curve.P_256).keyID(kid).generate();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** A token signed by {@code key} with claims that pass, changed by {@code change}. */
    static String token(JWK key, Consumer<JWTClaimsSet.Builder> change) throws Exception {
        JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder().issuer(ISSUER).audience(List.of(AUDIENCE, "account"))
                .subject("alice").claim("groups", List.of("etl", "ops")).issueTime(Date.from(NOW))
                .expirationTime(Date.from(NOW.plusSeconds(300)));
        change.accept(claims);
        JWSAlgorithm algorithm = key instanceof RSAKey ? JWSAlgorithm.RS256 : JWSAlgorithm.ES256;
        JWSSigner signer = key instanceof RSAKey rsa ? new RSASSASigner(rsa) : new ECDSASigner((ECKey) key);
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(algorithm).keyID(key.getKeyID()).type(JOSEObjectType.JWT)
                .build(), claims.build());
        jwt.sign(signer);
        return jwt.serialize();
    }

    static String token(JWK key) throws Exception {
        return token(key, claims -> { });
    }

    static Path keysFile(Path dir, JWK... keys) throws Exception {
        Path file = dir.resolve("jwks.json");
        Files.writeString(file, new JWKSet(List.of(keys)).toPublicJWKSet().toString());
        return file;
    }

    JwtIdentities fromFile(Path file) throws Exception {
        return JwtIdentities.start(new Oidc(ISSUER, file.toString(), AUDIENCE), now::get);
    }

    static String refusal(JwtIdentities identities, String token) {
        return assertThrows(Unauthenticated.class, () -> identities.identify(token)).getMessage();
    }

    @Test
    void aTokenSignedWithRs256OrEs256NamesItsUserAndGroups(@TempDir Path dir) throws Exception {
        JwtIdentities identities = fromFile(keysFile(dir, RSA, EC));
        assertEquals(new Identity("alice", List.of("etl", "ops")), identities.identify(token(RSA)));
        assertEquals(new Identity("alice", List.of("etl", "ops")), identities.identify(token(EC)));
        Identity one = identities.identify(token(EC, claims -> claims.claim("groups", "etl")));
        assertEquals(List.of("etl"), one.groups(), "one group as a string");
        assertEquals(List.of(), identities.identify(token(EC, claims -> claims.claim("groups", null))).groups());
    }

    @Test
    void theUserAndGroupsComeFromTheClaimsConfigured(@TempDir Path dir) throws Exception {
        JwtIdentities identities = JwtIdentities.start(new Oidc(ISSUER, keysFile(dir, RSA).toString(), AUDIENCE,
                "preferred_username", "roles", null, null), now::get);
        Identity who = identities.identify(token(RSA, claims -> claims.claim("preferred_username", "alice.smith@example.org")
                .claim("roles", List.of("research"))));
        assertEquals(new Identity("alice.smith@example.org", List.of("research")), who);
        assertEquals("the token names no user (claim 'preferred_username')", refusal(identities, token(RSA)));
    }

    @Test
    void expiryAndNotBeforeAreCheckedWithTheClockSkew(@TempDir Path dir) throws Exception {
        JwtIdentities identities = fromFile(keysFile(dir, RSA));
        String token = token(RSA);
        now.set(NOW.plusSeconds(300 + 59));
        assertEquals("alice", identities.identify(token).user(), "within the minute of skew");
        now.set(NOW.plusSeconds(300 + 61));
        assertEquals("the token expired at 2026-11-27T12:05:00Z", refusal(identities, token));
        now.set(NOW);
        assertEquals("the token is not valid before 2026-11-27T12:02:00Z", refusal(identities,
                token(RSA, claims -> claims.notBeforeTime(Date.from(NOW.plusSeconds(120))))));
        assertEquals("the token has no expiry", refusal(identities, token(RSA, claims -> claims.expirationTime(null))));
    }

    @Test
    void everyRefusalSaysWhyAndNoMore(@TempDir Path dir) throws Exception {
        JwtIdentities identities = fromFile(keysFile(dir, RSA, EC));
        assertEquals("the token is not for this scheduler (its audience)",
                refusal(identities, token(RSA, claims -> claims.audience("another-service"))));
        assertEquals("the token was issued by another issuer",
                refusal(identities, token(RSA, claims -> claims.issuer("https://evil.example.org"))));
        assertEquals("the token is signed by a key the identity provider does not publish",
                refusal(identities, token(generateRsa("r9"))));
        // the right key id, another key: the signature is checked
        assertEquals("the token's signature does not verify", refusal(identities, token(generateRsa("r1"))));
        String[] parts = token(RSA).split("\\.");
        String forged = parts[0] + "." + java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(
                ("{\"iss\":\"" + ISSUER + "\",\"aud\":\"" + AUDIENCE + "\",\"sub\":\"root\",\"exp\":9999999999}")
                        .getBytes(StandardCharsets.UTF_8)) + "." + parts[2];
        assertEquals("the token's signature does not verify", refusal(identities, forged), "claims changed after signing");
        assertEquals("not a signed JWT", refusal(identities, new PlainJWT(new JWTClaimsSet.Builder().issuer(ISSUER)
                .audience(AUDIENCE).subject("root").expirationTime(Date.from(NOW.plusSeconds(60))).build()).serialize()));
        SignedJWT hmac = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), new JWTClaimsSet.Builder().issuer(ISSUER)
                .audience(AUDIENCE).subject("root").build());
        hmac.sign(new MACSigner(new byte[32]));
        assertTrue(refusal(identities, hmac.serialize()).contains("does not take (RSA or ECDSA only)"));
        assertTrue(refusal(identities, token(RSA, claims -> claims.subject("bad user/..")))
                .startsWith("the token's user (claim 'sub') is not a user name Grove takes"));
        assertTrue(refusal(identities, token(RSA, claims -> claims.claim("groups", List.of(1, 2))))
                .contains("are not a list of names"));
        assertEquals("not a signed JWT", refusal(identities, "abc.def.ghi"));
    }

    @Test
    void aRotatedKeysFileIsReadAgainAndAFileWithPrivateKeysIsRefused(@TempDir Path dir) throws Exception {
        Path file = keysFile(dir, RSA);
        JwtIdentities identities = fromFile(file);
        ECKey next = generateEc("e2");
        assertEquals("the token is signed by a key the identity provider does not publish", refusal(identities,
                token(next)));
        Files.writeString(file, new JWKSet(List.of(RSA, next)).toPublicJWKSet().toString() + "\n");
        assertEquals("alice", identities.identify(token(next)).user(), "the new key, read from the changed file");
        Files.writeString(dir.resolve("private.json"), new JWKSet(RSA).toString(false));
        java.io.IOException refused = assertThrows(java.io.IOException.class, () -> fromFile(dir.resolve("private.json")));
        assertTrue(refused.getMessage().contains("holds private keys"), refused.getMessage());
    }

    /** An identity provider on loopback: its discovery document and its keys, which a test may rotate. */
    static final class Provider implements AutoCloseable {
        final HttpServer server;
        final AtomicReference<JWKSet> keys = new AtomicReference<>();
        final AtomicInteger fetches = new AtomicInteger();
        final String issuer;
        /** When set, the keys are answered only once it opens (a slow provider). */
        volatile java.util.concurrent.CountDownLatch hold;

        Provider(JWK... keys) throws Exception {
            this.keys.set(new JWKSet(List.of(keys)).toPublicJWKSet());
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            issuer = "http://127.0.0.1:" + server.getAddress().getPort() + "/realms/grove";
            server.createContext("/realms/grove/.well-known/openid-configuration", exchange -> reply(exchange,
                    "{\"issuer\":\"" + issuer + "\",\"jwks_uri\":\"" + issuer + "/certs\"}"));
            server.createContext("/realms/grove/certs", exchange -> {
                fetches.incrementAndGet();
                java.util.concurrent.CountDownLatch wait = hold;
                if (wait != null) {
                    try {
                        wait.await(10, java.util.concurrent.TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                reply(exchange, this.keys.get().toString());
            });
            server.start();
        }

        static void reply(com.sun.net.httpserver.HttpExchange exchange, String body) throws java.io.IOException {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }

    static String token(JWK key, String issuer) throws Exception {
        return token(key, claims -> claims.issuer(issuer));
    }

    @Test
    void keysFoundThroughTheIssuerAreCachedAndFetchedAgainOnARotation() throws Exception {
        try (Provider provider = new Provider(RSA)) {
            JwtIdentities identities = JwtIdentities.start(new Oidc(provider.issuer, null, AUDIENCE, null, null, null,
                    Duration.ofMillis(1)), now::get);
            assertEquals("alice", identities.identify(token(RSA, provider.issuer)).user());
            assertEquals("alice", identities.identify(token(RSA, provider.issuer)).user());
            assertEquals(1, provider.fetches.get(), "the keys are cached");
            // the provider rotates to a new key: a token signed with it makes the scheduler fetch again, off the
            // thread that checks it; once fetched, it is taken
            ECKey next = generateEc("e7");
            provider.keys.set(new JWKSet(List.of(RSA, next)).toPublicJWKSet());
            now.set(now.get().plusSeconds(1));
            String rotated = token(next, provider.issuer);
            io.grove.testing.Await.until("the rotated key", () -> {
                try {
                    return identities.identify(rotated).user().equals("alice");
                } catch (Unauthenticated refused) {
                    return false;
                }
            });
            assertEquals(2, provider.fetches.get(), "one fetch however often the new key was shown");
            // a key nobody publishes is looked for again, and refused
            now.set(now.get().plusSeconds(1));
            assertTrue(refusal(identities, token(generateRsa("r8"), provider.issuer))
                    .startsWith("the token is signed by a key the identity provider does not publish"));
        }
    }

    @Test
    void aProviderThatIsAwayIsSaidSoAndAWrongDiscoveryStopsTheStart() throws Exception {
        String issuer;
        try (Provider provider = new Provider(RSA)) {
            issuer = provider.issuer;
        }
        JwtIdentities identities = JwtIdentities.start(new Oidc(issuer, issuer + "/certs", AUDIENCE), now::get);
        assertEquals("the identity provider's keys cannot be read now; try again later",
                refusal(identities, token(RSA, issuer)));
        java.io.IOException unreachable = assertThrows(java.io.IOException.class,
                () -> JwtIdentities.start(new Oidc(issuer, null, AUDIENCE), now::get));
        assertTrue(unreachable.getMessage().contains("cannot read the identity provider's configuration at " + issuer
                + "/.well-known/openid-configuration"), unreachable.getMessage());
        try (Provider provider = new Provider(RSA)) {
            java.io.IOException other = assertThrows(java.io.IOException.class,
                    () -> JwtIdentities.start(new Oidc(provider.issuer + "x", null, AUDIENCE), now::get));
            assertTrue(other.getMessage().contains("cannot read") || other.getMessage().contains("not '"),
                    other.getMessage());
        }
    }

    /**
     * A provider that takes its time: tokens naming unknown keys never wait for it (the HTTP event
     * loop checks tokens), keys in hand keep working meanwhile, and a storm of unknown keys makes one
     * fetch.
     */
    @Test
    void aSlowProviderNeverHoldsUpTheCheckOfAToken() throws Exception {
        try (Provider provider = new Provider(RSA)) {
            JwtIdentities identities = JwtIdentities.start(new Oidc(provider.issuer, provider.issuer + "/certs", AUDIENCE,
                    null, null, null, Duration.ofMillis(1)), now::get);
            assertEquals(1, provider.fetches.get());
            java.util.concurrent.CountDownLatch answer = new java.util.concurrent.CountDownLatch(1);
            provider.hold = answer;
            try {
                now.set(now.get().plusSeconds(1));
                for (int i = 0; i < 50; i++) {
                    // while the provider holds its answer, every check returns: no thread here waits for it
                    assertTrue(refusal(identities, token(generateRsa("unknown-" + i), provider.issuer))
                            .startsWith("the token is signed by a key the identity provider does not publish"));
                    assertEquals("alice", identities.identify(token(RSA, provider.issuer)).user(), "keys in hand work");
                }
                io.grove.testing.Await.until("the one fetch to reach the provider", () -> provider.fetches.get() == 2);
            } finally {
                answer.countDown();
            }
            assertEquals(2, provider.fetches.get(), "one fetch for 50 unknown keys");
        }
    }

    @Test
    void theTokensFileComesFirstThenTheProvider(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("tokens.yaml"), "tokens:\n  - {token: robot-token-0123456789, user: robot}\n");
        Identities identities = Identities.of(TokenStore.load(dir.resolve("tokens.yaml")), fromFile(keysFile(dir, RSA)));
        assertEquals("robot", identities.identify("robot-token-0123456789").user());
        assertEquals("alice", identities.identify(token(RSA)).user());
        assertEquals("unknown token", assertThrows(Unauthenticated.class,
                () -> identities.identify("not-a-known-token-0123")).getMessage());
        Identities onlyTokens = Identities.of(TokenStore.load(dir.resolve("tokens.yaml")), null);
        assertEquals("unknown token", assertThrows(Unauthenticated.class,
                () -> onlyTokens.identify(token(RSA))).getMessage(), "no provider: a JWT is just an unknown token");
    }

    @Test
    void settingsWithoutAnAudienceAreRefused() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> new Oidc(ISSUER, null, null));
        assertTrue(refused.getMessage().startsWith("--oidc-audience is required"), refused.getMessage());
    }
}
