package io.grove.http;

import io.grove.api.ApiJson;

/** A response: status, content type and body. */
public record ApiResponse(int status, String contentType, String body) {

    public static ApiResponse json(int status, String body) {
        return new ApiResponse(status, "application/json; charset=utf-8", body);
    }

    /** A body record of the API, written with its one mapper. */
    public static ApiResponse json(int status, Object body) {
        return json(status, ApiJson.write(body));
    }

    /** {@code 200} with a body record. */
    public static ApiResponse ok(Object body) {
        return json(200, body);
    }

    public static ApiResponse text(String body) {
        return new ApiResponse(200, "text/plain; version=0.0.4; charset=utf-8", body);
    }
}
