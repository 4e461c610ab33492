package io.grove.protocol;

/** Why a frame or a message was refused. */
public enum ErrorCode {
    /** The frame's length is above the maximum; the connection is closed. */
    FRAME_TOO_LARGE,
    /** The body is not JSON. */
    MALFORMED_FRAME,
    /** The JSON is not a valid message: a field is missing, of the wrong type, or out of range. */
    INVALID_MESSAGE,
    /** The {@code type} is not one of the protocol's. */
    UNKNOWN_MESSAGE_TYPE,
    /** The handshake's version is not spoken here; the connection is closed. */
    UNSUPPORTED_PROTOCOL_VERSION,
    /** A heartbeat came before the handshake, or for another node than the handshake's. */
    HANDSHAKE_REQUIRED,
    /** The node was refused (for example, its token). */
    NODE_REFUSED,
    /** The scheduler failed to answer; the node should retry. */
    INTERNAL
}
