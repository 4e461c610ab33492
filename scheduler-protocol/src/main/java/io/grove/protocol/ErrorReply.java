package io.grove.protocol;

/**
 * A typed error. After a fatal one the scheduler closes the connection.
 *
 * @param code what kind of error
 * @param message what and where, e.g. {@code length: 20000000 (expected: <= 16777216)}
 * @param fatal whether the connection is closed after it
 */
public record ErrorReply(ErrorCode code, String message, boolean fatal) implements Message {

    public ErrorReply {
        if (code == null) {
            throw new IllegalArgumentException("'code' is required");
        }
        message = message == null ? "" : message;
    }
}
