package io.grove.server.http;

import io.grove.core.pool.AccessControl.Identity;
import io.grove.http.ApiException;
import io.grove.http.ApiRequest;
import io.grove.http.ApiResponse;
import io.grove.http.HeaderGate;
import io.grove.http.Secrets;
import io.grove.server.Clock;
import io.grove.server.security.AuditLog;
import io.grove.server.security.Identities;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * Puts authentication in front of the API: every route but {@code /healthz}, {@code /metrics},
 * {@code /api/v1/openapi.json} and
 * the dashboard's files ({@code /ui/}, which read the API with the user's token) needs
 * {@code Authorization: Bearer TOKEN} — a token of the tokens file or a JWT of the identity
 * provider (401 otherwise, saying why) — and the request then acts as the token's user and groups.
 * In insecure local mode ({@code identities == null}) the user is whoever {@code X-Grove-User} says.
 */
public final class Authenticator implements Function<ApiRequest, CompletableFuture<ApiResponse>>, HeaderGate {

    private static final List<List<String>> PUBLIC = List.of(List.of("healthz"), List.of("metrics"),
            List.of("api", "v1", "openapi.json"));

    private final Identities tokens;
    private final AuditLog audit;
    private final Clock clock;
    private final Function<ApiRequest, CompletableFuture<ApiResponse>> routes;

    public Authenticator(Identities tokens, AuditLog audit, Clock clock,
            Function<ApiRequest, CompletableFuture<ApiResponse>> routes) {
        this.tokens = tokens;
        this.audit = audit;
        this.clock = clock;
        this.routes = routes;
    }

    @Override
    public ApiException checkHead(ApiRequest head) {
        if (tokens == null || isPublic(head)) {
            return null;
        }
        try {
            identify(head);
            return null;
        } catch (ApiException refused) {
            return refused;
        }
    }

    /** Without tokens every whole head proves its connection; with them, only one with a valid token. */
    @Override
    public boolean proves(ApiRequest head) {
        if (tokens == null) {
            return true;
        }
        try {
            return head.authorization() != null && tokens.identify(Secrets.bearer(head.authorization())) != null;
        } catch (Identities.Unauthenticated refused) {
            return false;
        }
    }

    @Override
    public CompletableFuture<ApiResponse> apply(ApiRequest request) {
        if (tokens == null || isPublic(request)) {
            return routes.apply(request);
        }
        Identity identity = identify(request);
        return routes.apply(request.as(identity.user(), identity.groups()));
    }

    private static boolean isPublic(ApiRequest request) {
        List<String> path = request.path();
        return PUBLIC.contains(path)
                || request.method().equals("GET") && !path.isEmpty() && path.get(0).equals(UiRoutes.PREFIX);
    }

    private Identity identify(ApiRequest request) {
        String header = request.authorization();
        String token = Secrets.bearer(header);
        Identity identity = null;
        String why = header == null ? "no Authorization header" : token == null ? "not a bearer token" : null;
        if (why == null) {
            try {
                identity = tokens.identify(token);
            } catch (Identities.Unauthenticated refused) {
                why = refused.getMessage();
            }
        }
        if (identity == null) {
            if (audit != null) {
                audit.record(clock.now(), null, request.source(), request.method() + " /" + String.join("/", request.path()),
                        "", "refused", "401: " + why);
            }
            throw new ApiException(401, "UNAUTHENTICATED", (token == null ? "this scheduler needs a bearer token ("
                    + why + ")" : "the bearer token was refused: " + why) + "; send 'Authorization: Bearer TOKEN': the grove "
                    + "command takes it from GROVE_TOKEN, 'token:' or 'token_command:' in its config file");
        }
        return identity;
    }
}
