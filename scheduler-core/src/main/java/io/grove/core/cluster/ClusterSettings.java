package io.grove.core.cluster;

import java.time.Duration;

/**
 * Node liveness settings (see docs/scheduling.md#node-liveness).
 *
 * @param nodeHeartbeatTimeout silence after which a node is offline (its jobs are kept)
 * @param nodeRegistrationTimeout silence after which a node is forgotten and its jobs aborted
 * @param descentShortcuts whether a heartbeat's descent skips what cannot fit (always, but in the
 *     test that proves the shortcuts change no decision)
 * @param gangStartTimeout how long a gang's plan waits for every planned node to take its starts
 *     before it is dropped whole (docs/scheduling.md#gangs)
 */
public record ClusterSettings(Duration nodeHeartbeatTimeout, Duration nodeRegistrationTimeout, boolean descentShortcuts,
        Duration gangStartTimeout) {

    /** The default {@link #gangStartTimeout}: a few heartbeat periods of a node that is not asked to come at once. */
    public static final Duration DEFAULT_GANG_START_TIMEOUT = Duration.ofSeconds(30);

    public static final ClusterSettings DEFAULT = new ClusterSettings(Duration.ofSeconds(60), Duration.ofSeconds(600));

    public ClusterSettings(Duration nodeHeartbeatTimeout, Duration nodeRegistrationTimeout) {
        this(nodeHeartbeatTimeout, nodeRegistrationTimeout, true, DEFAULT_GANG_START_TIMEOUT);
    }

    /** These settings, the descent taking no shortcut. */
    public ClusterSettings withoutDescentShortcuts() {
        return new ClusterSettings(nodeHeartbeatTimeout, nodeRegistrationTimeout, false, gangStartTimeout);
    }

    /** These settings with another {@link #gangStartTimeout}. */
    public ClusterSettings withGangStartTimeout(Duration timeout) {
        return new ClusterSettings(nodeHeartbeatTimeout, nodeRegistrationTimeout, descentShortcuts, timeout);
    }

    public ClusterSettings {
        if (gangStartTimeout == null || gangStartTimeout.isNegative() || gangStartTimeout.isZero()) {
            throw new IllegalArgumentException("gang_start_timeout must be positive, got " + gangStartTimeout);
        }
        if (nodeRegistrationTimeout.compareTo(nodeHeartbeatTimeout) < 0) {
            throw new IllegalArgumentException("node_registration_timeout " + nodeRegistrationTimeout
                    + " is shorter than node_heartbeat_timeout " + nodeHeartbeatTimeout);
        }
    }
}
