package io.grove.core.operation;

import java.util.Map;

/** A refused submission or update, with a typed code and the numbers behind it. */
public final class SubmitException extends RuntimeException {

    private final SubmitError code;
    private final Map<String, Object> details;

    public SubmitException(SubmitError code, String message, Map<String, Object> details) {
        super(message);
        this.code = code;
        this.details = Map.copyOf(details);
    }

    public SubmitException(SubmitError code, String message) {
        this(code, message, Map.of());
    }

    public SubmitError code() {
        return code;
    }

    public Map<String, Object> details() {
        return details;
    }
}
