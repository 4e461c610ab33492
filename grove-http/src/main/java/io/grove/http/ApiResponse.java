package io.grove.http;

import io.grove.api.ApiJson;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A response: status, content type, body, and headers of its own (a page's next cursor); or an
 * event stream ({@code events}), which goes on until the client leaves.
 */
public record ApiResponse(int status, String contentType, String body, Map<String, String> headers, EventStream events) {

    /** The content type of an event stream. */
    public static final String EVENT_STREAM = "text/event-stream; charset=utf-8";

    public ApiResponse {
        headers = Map.copyOf(headers);
    }

    public ApiResponse(int status, String contentType, String body, Map<String, String> headers) {
        this(status, contentType, body, headers, null);
    }

    /** Server-Sent Events from {@code events}. */
    public static ApiResponse stream(EventStream events) {
        return new ApiResponse(200, EVENT_STREAM, "", Map.of("Cache-Control", "no-store"), events);
    }

    public ApiResponse(int status, String contentType, String body) {
        this(status, contentType, body, Map.of());
    }

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

    /** This response with one more header. */
    public ApiResponse withHeader(String name, String value) {
        Map<String, String> more = new LinkedHashMap<>(headers);
        more.put(name, value);
        return new ApiResponse(status, contentType, body, more, events);
    }
}
