package io.grove.server.security;

import io.grove.core.pool.AccessControl.Identity;

/**
 * Who a bearer token stands for: a token of the tokens file, or a JWT of the identity provider.
 * A refusal says why in words fit for the caller (expired, not for this scheduler, an unknown key),
 * never the token or what a valid one would hold.
 */
@FunctionalInterface
public interface Identities {

    /**
     * The identity {@code token} stands for.
     *
     * @throws Unauthenticated why it stands for none
     */
    Identity identify(String token) throws Unauthenticated;

    /** A token that stands for no one, and why. */
    final class Unauthenticated extends Exception {
        private static final long serialVersionUID = 1L;

        public Unauthenticated(String why) {
            super(why, null, false, false);
        }
    }

    /**
     * The tokens file's tokens first (either may be {@code null}), then, for a token shaped as a
     * JWT, the identity provider's.
     */
    static Identities of(TokenStore tokens, JwtIdentities jwts) {
        return token -> {
            if (token == null || token.isEmpty()) {
                throw new Unauthenticated("no token");
            }
            Identity known = tokens == null ? null : tokens.identify(token);
            if (known != null) {
                return known;
            }
            if (jwts != null && JwtIdentities.looksLikeJwt(token)) {
                return jwts.identify(token);
            }
            throw new Unauthenticated("unknown token");
        };
    }
}
