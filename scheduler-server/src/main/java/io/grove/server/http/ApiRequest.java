package io.grove.server.http;

import java.util.List;
import java.util.Map;

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
 */
public record ApiRequest(String method, List<String> path, Map<String, String> query, String user, String contentType,
        String body, String source) {

    /** The user, required for changes. */
    public String requireUser() {
        if (user == null || user.isBlank()) {
            throw new ApiException(400, "USER_REQUIRED", "say who you are with the X-Grove-User header");
        }
        return user;
    }
}
