package io.grove.protocol;

import com.fasterxml.jackson.annotation.JsonProperty;

/** Why a frame or a message was refused. */
public enum ErrorCode {
    /** The frame's length is above the maximum; the connection is closed. */
    @JsonProperty("frame_too_large")
    FRAME_TOO_LARGE,
    /** The body is not JSON. */
    @JsonProperty("malformed_frame")
    MALFORMED_FRAME,
    /** The JSON is not a valid message: a field is missing, of the wrong type, or out of range. */
    @JsonProperty("invalid_message")
    INVALID_MESSAGE,
    /** The {@code type} is not one of the protocol's. */
    @JsonProperty("unknown_message_type")
    UNKNOWN_MESSAGE_TYPE,
    /** The handshake's version is not spoken here; the connection is closed. */
    @JsonProperty("unsupported_protocol_version")
    UNSUPPORTED_PROTOCOL_VERSION,
    /**
     * A heartbeat came before the handshake, or for another node than the handshake's; or on a
     * connection whose node the scheduler has declared lost since (fatal: the node shakes hands again).
     */
    @JsonProperty("handshake_required")
    HANDSHAKE_REQUIRED,
    /** The node was refused (for example, its token). */
    @JsonProperty("node_refused")
    NODE_REFUSED,
    /** Another live connection holds this node id; the connection is closed. */
    @JsonProperty("node_id_in_use")
    NODE_ID_IN_USE,
    /**
     * This scheduler is a standby of a high-availability group; {@code leader} is the leader's node
     * endpoint when known. The connection is closed.
     */
    @JsonProperty("not_leader")
    NOT_LEADER,
    /** The scheduler failed to answer; the node should retry. */
    @JsonProperty("internal")
    INTERNAL
}
