package io.grove.server;

import io.grove.core.cluster.ClusterSettings;
import io.grove.http.HttpLimits;
import io.grove.protocol.Message;
import io.grove.server.accounting.AccountingSettings;
import io.grove.server.net.NodeEndpoint;
import io.grove.server.security.Security;
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
 * @param httpLimits what the API port allows a client (connections in all and from one address, timeouts, body size)
 * @param accounting where the job ledger and the pools' metering are kept
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
        Security security,
        int nodeConnectionsPerAddress,
        HttpLimits httpLimits,
        AccountingSettings accounting) {

    public static final int DEFAULT_NODE_PORT = 7077;
    public static final int DEFAULT_HTTP_PORT = 8080;

    /** Defaults for a config file and a data directory. */
    public static DaemonSettings defaults(Path configFile, Path dataDir) {
        return builder(configFile, dataDir).build();
    }

    /** A builder with the defaults for a config file and a data directory. */
    public static Builder builder(Path configFile, Path dataDir) {
        return new Builder(configFile, dataDir);
    }

    /** A builder holding these settings, to change some of them. */
    public Builder toBuilder() {
        Builder b = new Builder(configFile, dataDir);
        b.bindAddress = bindAddress;
        b.nodePort = nodePort;
        b.httpPort = httpPort;
        b.maxFrameBytes = maxFrameBytes;
        b.nodeIdleTimeout = nodeIdleTimeout;
        b.heartbeatPeriod = heartbeatPeriod;
        b.fairShareUpdatePeriod = fairShareUpdatePeriod;
        b.cluster = cluster;
        b.compactAfterRecords = compactAfterRecords;
        b.integralStateEvery = integralStateEvery;
        b.security = security;
        b.nodeConnectionsPerAddress = nodeConnectionsPerAddress;
        b.httpLimits = httpLimits;
        b.accounting = accounting;
        return b;
    }

    public DaemonSettings withPorts(int node, int http) {
        return toBuilder().nodePort(node).httpPort(http).build();
    }

    public DaemonSettings withCluster(ClusterSettings value) {
        return toBuilder().cluster(value).build();
    }

    public DaemonSettings withPeriods(Duration heartbeat, Duration fairShareUpdate) {
        return toBuilder().heartbeatPeriod(heartbeat).fairShareUpdatePeriod(fairShareUpdate).build();
    }

    /** Authentication: insecure local mode (the default of embedded daemons), or tokens. */
    public DaemonSettings withSecurity(Security value) {
        return toBuilder().security(value).build();
    }

    public DaemonSettings withBindAddress(String value) {
        return toBuilder().bindAddress(value).build();
    }

    /** How many connections one address may hold on the node port. */
    public DaemonSettings withNodeConnectionsPerAddress(int value) {
        return toBuilder().nodeConnectionsPerAddress(value).build();
    }

    /** What the API port allows a client. */
    public DaemonSettings withHttpLimits(HttpLimits value) {
        return toBuilder().httpLimits(value).build();
    }

    public DaemonSettings withAccounting(AccountingSettings value) {
        return toBuilder().accounting(value).build();
    }

    /** Settings one by one; unset ones keep their defaults. */
    public static final class Builder {
        private final Path configFile;
        private final Path dataDir;
        private String bindAddress = "127.0.0.1";
        private int nodePort = DEFAULT_NODE_PORT;
        private int httpPort = DEFAULT_HTTP_PORT;
        private int maxFrameBytes = Message.DEFAULT_MAX_FRAME_BYTES;
        private Duration nodeIdleTimeout = Duration.ofSeconds(120);
        private Duration heartbeatPeriod = Duration.ofSeconds(1);
        private Duration fairShareUpdatePeriod = Duration.ofMillis(200);
        private ClusterSettings cluster = ClusterSettings.DEFAULT;
        private long compactAfterRecords = 200_000;
        private Duration integralStateEvery = Duration.ofSeconds(10);
        private Security security = Security.INSECURE_LOCAL;
        private int nodeConnectionsPerAddress = NodeEndpoint.MAX_PER_ADDRESS;
        private HttpLimits httpLimits = HttpLimits.API;
        private AccountingSettings accounting =
                AccountingSettings.DEFAULTS;

        public Builder accounting(AccountingSettings value) {
            accounting = value;
            return this;
        }

        private Builder(Path configFile, Path dataDir) {
            this.configFile = configFile;
            this.dataDir = dataDir;
        }

        public Builder bindAddress(String value) {
            bindAddress = value;
            return this;
        }

        public Builder nodePort(int value) {
            nodePort = value;
            return this;
        }

        public Builder httpPort(int value) {
            httpPort = value;
            return this;
        }

        public Builder maxFrameBytes(int value) {
            maxFrameBytes = value;
            return this;
        }

        public Builder nodeIdleTimeout(Duration value) {
            nodeIdleTimeout = value;
            return this;
        }

        public Builder heartbeatPeriod(Duration value) {
            heartbeatPeriod = value;
            return this;
        }

        public Builder fairShareUpdatePeriod(Duration value) {
            fairShareUpdatePeriod = value;
            return this;
        }

        public Builder cluster(ClusterSettings value) {
            cluster = value;
            return this;
        }

        public Builder compactAfterRecords(long value) {
            compactAfterRecords = value;
            return this;
        }

        public Builder integralStateEvery(Duration value) {
            integralStateEvery = value;
            return this;
        }

        public Builder security(Security value) {
            security = value;
            return this;
        }

        public Builder nodeConnectionsPerAddress(int value) {
            nodeConnectionsPerAddress = value;
            return this;
        }

        public Builder httpLimits(HttpLimits value) {
            httpLimits = value;
            return this;
        }

        public DaemonSettings build() {
            return new DaemonSettings(configFile, dataDir, bindAddress, nodePort, httpPort, maxFrameBytes,
                    nodeIdleTimeout, heartbeatPeriod, fairShareUpdatePeriod, cluster, compactAfterRecords,
                    integralStateEvery, security, nodeConnectionsPerAddress, httpLimits, accounting);
        }
    }
}
