package io.grove.server.security;

import java.time.Duration;

/**
 * Sign-in through the organisation's identity provider: JWT bearer tokens it signs, checked against
 * its published keys.
 *
 * @param issuer the tokens' {@code iss}, exactly; with no {@code jwks}, its keys are found through
 *     {@code ISSUER/.well-known/openid-configuration}
 * @param jwks where its keys are: an {@code http(s)} URL, or a file (reread when it changes); or
 *     {@code null} to discover them from the issuer
 * @param audience the tokens' {@code aud} must name it (this scheduler)
 * @param userClaim the claim that names the user ({@code sub}, {@code preferred_username}, {@code email}, ...)
 * @param groupsClaim the claim that lists the user's groups (a list of strings, or one string), matched by
 *     pool ACLs as {@code group:NAME}
 * @param clockSkew how far the issuer's clock may be from this one when expiry and not-before are checked
 * @param refreshMinInterval the keys are fetched again, on a token signed by a key not known, at most
 *     twice in this long
 */
public record Oidc(String issuer, String jwks, String audience, String userClaim, String groupsClaim, Duration clockSkew,
        Duration refreshMinInterval) {

    public static final String DEFAULT_USER_CLAIM = "sub";
    public static final String DEFAULT_GROUPS_CLAIM = "groups";
    public static final Duration DEFAULT_CLOCK_SKEW = Duration.ofSeconds(60);
    public static final Duration DEFAULT_REFRESH_MIN_INTERVAL = Duration.ofSeconds(30);

    public Oidc {
        if (issuer == null || issuer.isBlank()) {
            throw new IllegalArgumentException("--oidc-issuer is required for JWT sign-in (the tokens' iss)");
        }
        if (audience == null || audience.isBlank()) {
            throw new IllegalArgumentException("--oidc-audience is required for JWT sign-in (what the tokens' aud "
                    + "must name: this scheduler), so that a token made for another service is not taken here");
        }
        userClaim = userClaim == null || userClaim.isBlank() ? DEFAULT_USER_CLAIM : userClaim;
        groupsClaim = groupsClaim == null || groupsClaim.isBlank() ? DEFAULT_GROUPS_CLAIM : groupsClaim;
        clockSkew = clockSkew == null ? DEFAULT_CLOCK_SKEW : clockSkew;
        refreshMinInterval = refreshMinInterval == null ? DEFAULT_REFRESH_MIN_INTERVAL : refreshMinInterval;
        if (clockSkew.isNegative() || clockSkew.compareTo(Duration.ofMinutes(10)) > 0) {
            throw new IllegalArgumentException("--oidc-clock-skew must be between 0 and 10m, got " + clockSkew);
        }
    }

    /** With the defaults for the claims, skew and refresh. */
    public Oidc(String issuer, String jwks, String audience) {
        this(issuer, jwks, audience, null, null, null, null);
    }
}
