package io.grove.core.cluster;

import java.time.Duration;

/**
 * Node liveness settings (see docs/scheduling.md#node-liveness).
 *
 * @param nodeHeartbeatTimeout silence after which a node is offline (its jobs are kept)
 * @param nodeRegistrationTimeout silence after which a node is forgotten and its jobs aborted
 * @param descentShortcuts whether a heartbeat's descent skips what cannot fit (always, but in the
 *     test that proves the shortcuts change no decision)
 */
public record ClusterSettings(Duration nodeHeartbeatTimeout, Duration nodeRegistrationTimeout, boolean descentShortcuts) {

    public static final ClusterSettings DEFAULT = new ClusterSettings(Duration.ofSeconds(60), Duration.ofSeconds(600));

    public ClusterSettings(Duration nodeHeartbeatTimeout, Duration nodeRegistrationTimeout) {
        this(nodeHeartbeatTimeout, nodeRegistrationTimeout, true);
    }

    /** These settings, the descent taking no shortcut. */
    public ClusterSettings withoutDescentShortcuts() {
        return new ClusterSettings(nodeHeartbeatTimeout, nodeRegistrationTimeout, false);
    }

    public ClusterSettings {
        if (nodeRegistrationTimeout.compareTo(nodeHeartbeatTimeout) < 0) {
            throw new IllegalArgumentException("node_registration_timeout " + nodeRegistrationTimeout
                    + " is shorter than node_heartbeat_timeout " + nodeHeartbeatTimeout);
        }
    }
}
