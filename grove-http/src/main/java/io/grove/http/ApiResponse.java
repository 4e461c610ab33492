package io.grove.http;

/** A response: status, content type and body. */
public record ApiResponse(int status, String contentType, String body) {

    public static ApiResponse json(int status, String body) {
        return new ApiResponse(status, "application/json; charset=utf-8", body);
    }

    public static ApiResponse text(String body) {
        return new ApiResponse(200, "text/plain; version=0.0.4; charset=utf-8", body);
    }
}
