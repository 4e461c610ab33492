package io.grove.server.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.jwk.ECKey;
import io.grove.server.Clock;
import io.grove.server.DaemonSettings;
import io.grove.server.SchedulerDaemon;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A scheduler whose users sign in with the identity provider's JWTs: the token's groups meet the
 * pools' ACLs, and a refused token is answered 401 with why, and audited.
 */
class OidcDaemonTest {

    final SecurityTest calls = new SecurityTest();

    @Test
    void groupsFromTheTokenMeetThePoolsRulesAndRefusalsSayWhy(@TempDir Path dir) throws Exception {
        ECKey key = JwtIdentitiesTest.generateEc("k1");
        Files.writeString(dir.resolve("pools.yaml"), SecurityTest.POOLS);
        Path keys = JwtIdentitiesTest.keysFile(dir, key);
        DaemonSettings settings = DaemonSettings.defaults(dir.resolve("pools.yaml"), dir.resolve("data")).withPorts(0, 0)
                .withSecurity(new Security(false, null, null, null).withOidc(new Oidc(JwtIdentitiesTest.ISSUER,
                        keys.toString(), JwtIdentitiesTest.AUDIENCE, "preferred_username", "groups", null, null)));
        Instant now = Instant.now();
        String etl = JwtIdentitiesTest.token(key, claims -> claims.claim("preferred_username", "alice")
                .claim("groups", List.of("etl")).issueTime(Date.from(now)).expirationTime(Date.from(now.plusSeconds(600))));
        String noGroup = JwtIdentitiesTest.token(key, claims -> claims.claim("preferred_username", "bob")
                .claim("groups", List.of()).issueTime(Date.from(now)).expirationTime(Date.from(now.plusSeconds(600))));
        String expired = JwtIdentitiesTest.token(key, claims -> claims.claim("preferred_username", "alice")
                .issueTime(Date.from(now.minusSeconds(7200))).expirationTime(Date.from(now.minusSeconds(3600))));
        try (SchedulerDaemon daemon = SchedulerDaemon.start(settings, Clock.SYSTEM)) {
            SecurityTest.Reply created = calls.call(daemon, "POST", "/api/v1/operations", SecurityTest.bearer(etl),
                    SecurityTest.spec("nightly"));
            assertEquals(201, created.status(), created.body().toString());
            assertEquals("alice", created.body().get("user").asText(), "the token's user");
            SecurityTest.Reply forbidden = calls.call(daemon, "POST", "/api/v1/operations", SecurityTest.bearer(noGroup),
                    SecurityTest.spec("nightly"));
            assertEquals(403, forbidden.status(), "bob's token names no group etl");
            assertEquals(201, calls.call(daemon, "POST", "/api/v1/operations", SecurityTest.bearer(noGroup),
                    SecurityTest.spec("open")).status());
            SecurityTest.Reply late = calls.call(daemon, "GET", "/api/v1/operations", SecurityTest.bearer(expired), null);
            assertEquals(401, late.status());
            assertTrue(late.body().get("message").asText().startsWith("the bearer token was refused: the token expired at "),
                    late.body().toString());
            SecurityTest.Reply stranger = calls.call(daemon, "GET", "/api/v1/operations",
                    SecurityTest.bearer(JwtIdentitiesTest.token(JwtIdentitiesTest.generateEc("k9"))), null);
            assertEquals(401, stranger.status());
            assertTrue(stranger.body().get("message").asText().contains("a key the identity provider does not publish"),
                    stranger.body().toString());
            List<String> audit = Files.readAllLines(dir.resolve("data/audit.log"));
            assertTrue(audit.stream().anyMatch(line -> line.contains("401: the token expired at")), audit.toString());
            assertTrue(audit.stream().noneMatch(line -> line.contains(expired)), "the token itself is never written");
        }
    }
}
