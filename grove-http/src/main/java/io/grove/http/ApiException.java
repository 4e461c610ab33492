package io.grove.http;

import io.grove.api.ErrorDetails;
import java.util.Map;

/**
 * A refused request: the JSON error {@code {code, message, details}} with its HTTP status.
 */
public final class ApiException extends RuntimeException {

    private final int status;
    private final String code;
    private final Map<String, Object> details;

    public ApiException(int status, String code, String message, Map<String, Object> details) {
        super(message);
        this.status = status;
        this.code = code;
        this.details = details == null ? Map.of() : details;
    }

    /** A refusal whose details are one of the typed shapes. */
    public ApiException(int status, String code, String message, ErrorDetails details) {
        this(status, code, message, details.asMap());
    }

    public ApiException(int status, String code, String message) {
        this(status, code, message, Map.of());
    }

    public int status() {
        return status;
    }

    public String code() {
        return code;
    }

    public Map<String, Object> details() {
        return details;
    }

    public static ApiException notFound(String what) {
        return new ApiException(404, "NOT_FOUND", what);
    }
}
