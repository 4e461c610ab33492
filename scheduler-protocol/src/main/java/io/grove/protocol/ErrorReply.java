package io.grove.protocol;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * A typed error. After a fatal one the scheduler closes the connection.
 *
 * @param code what kind of error
 * @param message what and where, e.g. {@code length: 20000000 (expected: <= 16777216)}
 * @param fatal whether the connection is closed after it
 * @param leader for {@link ErrorCode#NOT_LEADER}: the leader's node endpoint, {@code HOST:PORT}; absent otherwise
 */
public record ErrorReply(ErrorCode code, String message, boolean fatal,
        @JsonInclude(JsonInclude.Include.NON_NULL) String leader) implements Message {

    public ErrorReply {
        if (code == null) {
            throw new IllegalArgumentException("'code' is required");
        }
        message = message == null ? "" : message;
    }

    public ErrorReply(ErrorCode code, String message, boolean fatal) {
        this(code, message, fatal, null);
    }
}
