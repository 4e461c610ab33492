package io.grove.protocol;

/**
 * What the decoder passes on instead of a message when a frame is bad but the connection can go
 * on: the handler answers with {@link #reply()} and keeps serving.
 */
public record DecodeFailure(ProtocolException error) {

    public ErrorReply reply() {
        return error.toReply(false);
    }
}
