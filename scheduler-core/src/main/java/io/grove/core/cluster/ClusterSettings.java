package io.grove.core.cluster;

import java.time.Duration;

/**
 * Node liveness settings (see docs/scheduling.md#node-liveness).
 *
 * @param nodeHeartbeatTimeout silence after which a node is offline (its jobs are kept)
 * @param nodeRegistrationTimeout silence after which a node is forgotten and its jobs aborted
 */
public record ClusterSettings(Duration nodeHeartbeatTimeout, Duration nodeRegistrationTimeout) {

    public static final ClusterSettings DEFAULT = new ClusterSettings(Duration.ofSeconds(60), Duration.ofSeconds(600));

    public ClusterSettings {
        if (nodeRegistrationTimeout.compareTo(nodeHeartbeatTimeout) < 0) {
            throw new IllegalArgumentException("node_registration_timeout " + nodeRegistrationTimeout
                    + " is shorter than node_heartbeat_timeout " + nodeHeartbeatTimeout);
        }
    }
}
