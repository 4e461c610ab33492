package io.grove.protocol;

/** A frame that could not be turned into a message, with the error to send back. */
public final class ProtocolException extends Exception {

    private final ErrorCode code;

    public ProtocolException(ErrorCode code, String message) {
        super(message);
        this.code = code;
    }

    public ErrorCode code() {
        return code;
    }

    /** The reply that tells the peer. */
    public ErrorReply toReply(boolean fatal) {
        return new ErrorReply(code, getMessage(), fatal);
    }
}
