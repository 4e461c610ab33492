package io.grove.server.coord;

/** A request to the coordination service that failed, and what is known of its outcome. */
public final class CoordinationException extends Exception {

    /** What a failure means for the caller. */
    public enum Kind {
        /** A newer leader claimed an epoch: this write was refused, and every later one will be. */
        FENCED,
        /** The connection was lost while the request was out: it may or may not have been applied. */
        OUTCOME_UNKNOWN,
        /** The service refused the request (a node that exists, or is missing); nothing was applied. */
        REFUSED
    }

    private final Kind kind;

    public CoordinationException(Kind kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}
