package io.grove.protocol;

/**
 * The scheduler's answer to a handshake.
 *
 * @param protocolVersion the version the scheduler speaks
 * @param nodeId the node, as registered
 * @param heartbeatPeriodMs how often the node should heartbeat
 */
public record Welcome(int protocolVersion, String nodeId, long heartbeatPeriodMs) implements Message {

    public Welcome {
        Checks.required(nodeId, "node_id");
        Checks.nonNegative(heartbeatPeriodMs, "heartbeat_period_ms");
    }
}
