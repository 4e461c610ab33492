package io.grove.http;

import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * One HTTP request as the routes see it.
 *
 * @param method GET, POST, PATCH, ...
 * @param path the path split at slashes, without empty parts
 * @param query query parameters (first value of each)
 * @param user the {@code X-Grove-User} header, or {@code null}
 * @param contentType the request's content type, or {@code null}
 * @param body the body as text
 * @param source the client's address
 * @param groups the user's groups (from the tokens file), empty without authentication
 * @param authorization the {@code Authorization} header, or {@code null}
 * @param idempotencyKey the {@code Idempotency-Key} header, or {@code null}
 * @param gone whether the client has left (its connection closed): work for it may be skipped
 */
public record ApiRequest(String method, List<String> path, Map<String, String> query, String user, String contentType,
        String body, String source, List<String> groups, String authorization, String idempotencyKey,
        BooleanSupplier gone) {

    public ApiRequest {
        groups = groups == null ? List.of() : List.copyOf(groups);
        gone = gone == null ? () -> false : gone;
    }

    /** Whether the client has left: an answer would reach no one. */
    public boolean abandoned() {
        return gone.getAsBoolean();
    }

    /** The same request made by an authenticated user. */
    public ApiRequest as(String authenticatedUser, List<String> userGroups) {
        return new ApiRequest(method, path, query, authenticatedUser, contentType, body, source, userGroups, authorization,
                idempotencyKey, gone);
    }

    /** The user, required for changes. */
    public String requireUser() {
        if (user == null || user.isBlank()) {
            throw new ApiException(400, "USER_REQUIRED", "say who you are with the X-Grove-User header");
        }
        return user;
    }
}
