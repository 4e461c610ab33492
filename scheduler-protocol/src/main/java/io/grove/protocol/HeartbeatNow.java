package io.grove.protocol;

/**
 * The scheduler asks a node to heartbeat now rather than at its period: work has arrived that the
 * node has room for (protocol version 3). Unsolicited — it answers no request — and sent only to
 * nodes that shook hands with version 3 or later; the node sends its next heartbeat at once (or
 * right after the one in flight), and the answer follows the same rules as any other.
 */
public record HeartbeatNow() implements Message {
}
