package io.grove.protocol;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

/**
 * One frame's body. The JSON carries its kind in {@code "type"}: {@code handshake},
 * {@code welcome}, {@code heartbeat}, {@code heartbeat_reply}, {@code heartbeat_now} or {@code error}.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
    @JsonSubTypes.Type(value = Handshake.class, name = "handshake"),
    @JsonSubTypes.Type(value = Welcome.class, name = "welcome"),
    @JsonSubTypes.Type(value = NodeHeartbeat.class, name = "heartbeat"),
    @JsonSubTypes.Type(value = HeartbeatReply.class, name = "heartbeat_reply"),
    @JsonSubTypes.Type(value = ErrorReply.class, name = "error"),
    @JsonSubTypes.Type(value = HeartbeatNow.class, name = "heartbeat_now")
})
public sealed interface Message permits Handshake, Welcome, NodeHeartbeat, HeartbeatReply, ErrorReply, HeartbeatNow {

    /**
     * The protocol version this code speaks: 2 adds heartbeats that list only the jobs started
     * since the previous acknowledged one ({@code delta}) and the scheduler's {@code resync}; 3 adds
     * the scheduler's unsolicited {@link HeartbeatNow}.
     */
    int VERSION = 3;

    /** The first version that is sent {@link HeartbeatNow}. */
    int HEARTBEAT_NOW_VERSION = 3;

    /** The oldest version still served: version 1 nodes send their full running list every time. */
    int MIN_VERSION = 1;

    /** The default maximum frame body, 16 MiB. */
    int DEFAULT_MAX_FRAME_BYTES = 16 * 1024 * 1024;
}
