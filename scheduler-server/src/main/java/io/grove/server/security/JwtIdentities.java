package io.grove.server.security;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKMatcher;
import com.nimbusds.jose.jwk.JWKSelector;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.grove.core.pool.AccessControl.Identity;
import io.grove.server.Clock;
import io.grove.server.security.Identities.Unauthenticated;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.ParseException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * JWT bearer tokens of the organisation's identity provider: signed (RSA or ECDSA, never HMAC or
 * unsigned) by a key the provider publishes, issued by it, for this scheduler (audience), not
 * expired nor early (with a clock skew). The user comes from one claim, the groups from another.
 * Keys come from a URL — in hand, and fetched again off the checking thread when a token names a key
 * not known (a rotation), at most once per {@link Oidc#refreshMinInterval()} ({@link RemoteKeys}) —
 * or from a file, reread when it changes.
 */
public final class JwtIdentities {

    private static final Logger LOG = LoggerFactory.getLogger(JwtIdentities.class);

    /** The signatures taken: public-key ones only, so a public key can never be used as an HMAC secret. */
    static final Set<JWSAlgorithm> ALGORITHMS = Set.of(JWSAlgorithm.RS256, JWSAlgorithm.RS384, JWSAlgorithm.RS512,
            JWSAlgorithm.PS256, JWSAlgorithm.PS384, JWSAlgorithm.PS512, JWSAlgorithm.ES256, JWSAlgorithm.ES384,
            JWSAlgorithm.ES512);

    /** User names a token may give: what the rest of Grove takes in names and logs. */
    static final Pattern USER = Pattern.compile("[A-Za-z0-9._@+-]{1,128}");

    /** A token longer than this is refused unread. */
    static final int MAX_TOKEN = 16 * 1024;

    private static final Pattern JWT_SHAPE = Pattern.compile("[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+");

    private final Oidc settings;
    private final Clock clock;
    private final JWKSource<SecurityContext> keys;
    private final String keysFrom;

    private JwtIdentities(Oidc settings, Clock clock, JWKSource<SecurityContext> keys, String keysFrom) {
        this.settings = settings;
        this.clock = clock;
        this.keys = keys;
        this.keysFrom = keysFrom;
    }

    /**
     * Sets up the keys: the file is read now (a bad one stops the start); a URL is fetched at the
     * first token, and an issuer without {@code jwks} is asked for its keys' URL now.
     */
    public static JwtIdentities start(Oidc settings, Clock clock) throws IOException {
        String jwks = settings.jwks() != null ? settings.jwks() : discover(settings.issuer());
        JWKSource<SecurityContext> keys;
        if (jwks.startsWith("https://") || jwks.startsWith("http://")) {
            keys = new RemoteKeys(URI.create(jwks).toURL(), settings.refreshMinInterval().toMillis(), clock);
        } else {
            keys = new FileKeys(Path.of(jwks));
        }
        LOG.info("JWT sign-in: issuer {}, audience {}, keys from {}, user from claim '{}', groups from '{}'",
                settings.issuer(), settings.audience(), jwks, settings.userClaim(), settings.groupsClaim());
        return new JwtIdentities(settings, clock, keys, jwks);
    }

    /** Whether a token has a JWT's shape (three base64url parts). */
    public static boolean looksLikeJwt(String token) {
        return token.length() <= MAX_TOKEN && JWT_SHAPE.matcher(token).matches();
    }

    /** Who the token stands for; a refusal says why without saying what a valid token would hold. */
    public Identity identify(String token) throws Unauthenticated {
        if (token.length() > MAX_TOKEN) {
            throw new Unauthenticated("the token is longer than " + MAX_TOKEN + " characters");
        }
        SignedJWT jwt;
        JWTClaimsSet claims;
        try {
            jwt = SignedJWT.parse(token);
            claims = jwt.getJWTClaimsSet();
        } catch (ParseException e) {
            throw new Unauthenticated("not a signed JWT");
        }
        verifySignature(jwt);
        Instant now = clock.now();
        if (!settings.issuer().equals(claims.getIssuer())) {
            throw new Unauthenticated("the token was issued by another issuer");
        }
        if (claims.getAudience() == null || !claims.getAudience().contains(settings.audience())) {
            throw new Unauthenticated("the token is not for this scheduler (its audience)");
        }
        Date expires = claims.getExpirationTime();
        if (expires == null) {
            throw new Unauthenticated("the token has no expiry");
        }
        if (now.isAfter(expires.toInstant().plus(settings.clockSkew()))) {
            throw new Unauthenticated("the token expired at " + expires.toInstant());
        }
        Date notBefore = claims.getNotBeforeTime();
        if (notBefore != null && now.plus(settings.clockSkew()).isBefore(notBefore.toInstant())) {
            throw new Unauthenticated("the token is not valid before " + notBefore.toInstant());
        }
        Object user = claims.getClaim(settings.userClaim());
        if (!(user instanceof String name) || name.isBlank()) {
            throw new Unauthenticated("the token names no user (claim '" + settings.userClaim() + "')");
        }
        if (!USER.matcher(name).matches()) {
            throw new Unauthenticated("the token's user (claim '" + settings.userClaim() + "') is not a user name "
                    + "Grove takes: letters, digits and . _ @ + -, at most 128");
        }
        return new Identity(name, groups(claims.getClaim(settings.groupsClaim())));
    }

    private List<String> groups(Object claim) throws Unauthenticated {
        if (claim == null) {
            return List.of();
        }
        if (claim instanceof String one) {
            return List.of(one);
        }
        if (claim instanceof List<?> list && list.size() <= 1024) {
            List<String> groups = new ArrayList<>();
            for (Object group : list) {
                if (!(group instanceof String name)) {
                    throw new Unauthenticated("the token's groups (claim '" + settings.groupsClaim()
                            + "') are not a list of names");
                }
                groups.add(name);
            }
            return groups;
        }
        throw new Unauthenticated("the token's groups (claim '" + settings.groupsClaim() + "') are not a list of names");
    }

    private void verifySignature(SignedJWT jwt) throws Unauthenticated {
        JWSHeader header = jwt.getHeader();
        if (!ALGORITHMS.contains(header.getAlgorithm())) {
            throw new Unauthenticated("the token is signed with " + header.getAlgorithm() + ", which this scheduler "
                    + "does not take (RSA or ECDSA only)");
        }
        List<JWK> candidates;
        try {
            candidates = keys.get(new JWKSelector(JWKMatcher.forJWSHeader(header)), null);
        } catch (KeySourceException e) {
            LOG.warn("the identity provider's keys cannot be read from {}: {}", keysFrom, e.getMessage());
            throw new Unauthenticated("the identity provider's keys cannot be read now; try again later");
        }
        if (candidates.isEmpty()) {
            throw new Unauthenticated("the token is signed by a key the identity provider does not publish"
                    + (keys instanceof RemoteKeys remote && remote.fetching()
                    ? " (its keys are being fetched again: if the key is new, try again in a few seconds)" : ""));
        }
        for (JWK key : candidates) {
            try {
                JWSVerifier verifier = key instanceof RSAKey rsa ? new RSASSAVerifier(rsa)
                        : key instanceof ECKey ec ? new ECDSAVerifier(ec) : null;
                if (verifier != null && jwt.verify(verifier)) {
                    return;
                }
            } catch (JOSEException e) {
                // this key cannot check it; the next may
            }
        }
        throw new Unauthenticated("the token's signature does not verify");
    }

    /** The keys' URL an OpenID provider publishes at {@code ISSUER/.well-known/openid-configuration}. */
    static String discover(String issuer) throws IOException {
        String at = issuer.replaceAll("/+$", "") + "/.well-known/openid-configuration";
        JsonNode configuration;
        try {
            var connection = URI.create(at).toURL().openConnection();
            connection.setConnectTimeout(5_000);
            connection.setReadTimeout(5_000);
            try (InputStream in = connection.getInputStream()) {
                configuration = new ObjectMapper().readTree(in.readNBytes(1 << 20));
            }
        } catch (IOException | IllegalArgumentException e) {
            throw new IOException("cannot read the identity provider's configuration at " + at + " (" + e.getMessage()
                    + "); give its keys with --jwks FILE|URL", e);
        }
        String jwks = configuration.path("jwks_uri").asText("");
        if (!jwks.startsWith("https://") && !jwks.startsWith("http://")) {
            throw new IOException(at + " gives no jwks_uri; give the keys with --jwks FILE|URL");
        }
        if (!configuration.path("issuer").asText("").equals(issuer)) {
            throw new IOException(at + " is the configuration of issuer '" + configuration.path("issuer").asText("")
                    + "', not '" + issuer + "'");
        }
        return jwks;
    }

    /** Keys from a file, reread when it changes (a file that cannot be read keeps the keys in force). */
    static final class FileKeys implements JWKSource<SecurityContext> {
        private final Path file;
        private volatile JWKSet set;
        private volatile String seen;

        FileKeys(Path file) throws IOException {
            this.file = file;
            try {
                this.set = JWKSet.load(file.toFile());
                this.seen = stamp();
            } catch (ParseException e) {
                throw new IOException(file + ": not a JWK set: " + e.getMessage(), e);
            }
            if (set.getKeys().stream().anyMatch(JWK::isPrivate)) {
                throw new IOException(file + " holds private keys: give only the public ones");
            }
        }

        private String stamp() throws IOException {
            return Files.getLastModifiedTime(file).toMillis() + "/" + Files.size(file);
        }

        @Override
        public List<JWK> get(JWKSelector selector, SecurityContext context) {
            try {
                String now = stamp();
                if (!now.equals(seen)) {
                    JWKSet fresh = JWKSet.load(file.toFile());
                    if (fresh.getKeys().stream().noneMatch(JWK::isPrivate)) {
                        set = fresh;
                        LOG.info("JWT keys reread from {}: {} key(s)", file, fresh.getKeys().size());
                    }
                    seen = now;
                }
            } catch (IOException | ParseException e) {
                LOG.error("JWT keys file {} not reread, the keys in force stay: {}", file, e.getMessage());
            }
            return selector.select(set);
        }
    }
}
