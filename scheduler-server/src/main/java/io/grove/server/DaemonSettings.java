package io.grove.server;

import io.grove.core.cluster.ClusterSettings;
import io.grove.protocol.Message;
import io.grove.server.net.NodeEndpoint;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Everything the daemon is started with.
 *
 * @param configFile the pools file, watched and reloaded
 * @param dataDir where the journal lives
 * @param bindAddress the address both endpoints bind to (loopback unless told otherwise)
 * @param nodePort the node endpoint's port (0 = any free port)
 * @param httpPort the HTTP API's port (0 = any free port)
 * @param maxFrameBytes the largest node frame accepted
 * @param nodeIdleTimeout a node connection silent this long is closed
 * @param heartbeatPeriod the period nodes are told to heartbeat at
 * @param fairShareUpdatePeriod how often fair shares are recomputed
 * @param cluster node liveness timeouts
 * @param compactAfterRecords the journal is compacted after this many records
 * @param integralStateEvery how often integral volumes are journaled
 * @param security authentication of users and nodes, and the audit log
 * @param nodeConnectionsPerAddress connections to the node port from one address (a node needs one;
 *     more for many simulated nodes on one machine, or nodes behind one NAT address)
 */
public record DaemonSettings(
        Path configFile,
        Path dataDir,
        String bindAddress,
        int nodePort,
        int httpPort,
        int maxFrameBytes,
        Duration nodeIdleTimeout,
        Duration heartbeatPeriod,
        Duration fairShareUpdatePeriod,
        ClusterSettings cluster,
        long compactAfterRecords,
        Duration integralStateEvery,
        io.grove.server.security.Security security,
        int nodeConnectionsPerAddress) {

    public static final int DEFAULT_NODE_PORT = 7077;
    public static final int DEFAULT_HTTP_PORT = 8080;

    /** Defaults for a config file and a data directory. */
    public static DaemonSettings defaults(Path configFile, Path dataDir) {
        return new DaemonSettings(configFile, dataDir, "127.0.0.1", DEFAULT_NODE_PORT, DEFAULT_HTTP_PORT,
                Message.DEFAULT_MAX_FRAME_BYTES, Duration.ofSeconds(120), Duration.ofSeconds(1),
                Duration.ofMillis(200), ClusterSettings.DEFAULT, 200_000, Duration.ofSeconds(10),
                io.grove.server.security.Security.INSECURE_LOCAL, NodeEndpoint.MAX_PER_ADDRESS);
    }

    public DaemonSettings withPorts(int node, int http) {
        return new DaemonSettings(configFile, dataDir, bindAddress, node, http, maxFrameBytes, nodeIdleTimeout,
                heartbeatPeriod, fairShareUpdatePeriod, cluster, compactAfterRecords, integralStateEvery, security, nodeConnectionsPerAddress);
    }

    public DaemonSettings withCluster(ClusterSettings value) {
        return new DaemonSettings(configFile, dataDir, bindAddress, nodePort, httpPort, maxFrameBytes, nodeIdleTimeout,
                heartbeatPeriod, fairShareUpdatePeriod, value, compactAfterRecords, integralStateEvery, security, nodeConnectionsPerAddress);
    }

    public DaemonSettings withPeriods(Duration heartbeat, Duration fairShareUpdate) {
        return new DaemonSettings(configFile, dataDir, bindAddress, nodePort, httpPort, maxFrameBytes, nodeIdleTimeout,
                heartbeat, fairShareUpdate, cluster, compactAfterRecords, integralStateEvery, security, nodeConnectionsPerAddress);
    }

    /** Authentication: insecure local mode (the default of embedded daemons), or tokens. */
    public DaemonSettings withSecurity(io.grove.server.security.Security value) {
        return new DaemonSettings(configFile, dataDir, bindAddress, nodePort, httpPort, maxFrameBytes, nodeIdleTimeout,
                heartbeatPeriod, fairShareUpdatePeriod, cluster, compactAfterRecords, integralStateEvery, value, nodeConnectionsPerAddress);
    }

    public DaemonSettings withBindAddress(String value) {
        return new DaemonSettings(configFile, dataDir, value, nodePort, httpPort, maxFrameBytes, nodeIdleTimeout,
                heartbeatPeriod, fairShareUpdatePeriod, cluster, compactAfterRecords, integralStateEvery, security, nodeConnectionsPerAddress);
    }

    /** How many connections one address may hold on the node port. */
    public DaemonSettings withNodeConnectionsPerAddress(int value) {
        return new DaemonSettings(configFile, dataDir, bindAddress, nodePort, httpPort, maxFrameBytes, nodeIdleTimeout,
                heartbeatPeriod, fairShareUpdatePeriod, cluster, compactAfterRecords, integralStateEvery, security, value);
    }
}
