package io.grove.agent;

import io.grove.agent.broker.BrokerConfig;
import io.grove.agent.broker.BrokerResources;
import io.grove.core.resource.Resources;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Everything an agent is started with.
 *
 * @param schedulerHost the scheduler's node endpoint host
 * @param schedulerPort its port (7077 by default)
 * @param nodeId the node's id, or {@code null} to use the one kept in the work directory
 * @param tags the node's tags (they choose its pool tree)
 * @param resources what the node offers, detected and overridden by flags
 * @param workDir sandboxes, logs, the node id
 * @param bindHost where the agent's HTTP endpoint listens (loopback by default)
 * @param httpPort the HTTP endpoint's port (logs, broker view, metrics); 0 for any free port
 * @param advertisedHost the host put in the node's address, or {@code null} for the bind host
 * @param brokerPort the broker's loopback port; 0 for any free port, -1 for none
 * @param brokerConfig the broker's configuration
 * @param brokerReserve CPU and memory kept for broker tasks, never offered to the scheduler
 * @param logRetention how long logs of finished jobs are kept
 * @param memorySampleInterval how often job memory is measured
 * @param backoffBase the first wait before reconnecting, doubled after each failure
 * @param backoffMax the longest wait before reconnecting
 * @param requestTimeout how long a heartbeat may wait for its reply
 * @param nodeToken the cluster's node token, sent in the handshake; {@code null} for none
 * @param jobUsers when the agent runs as root, named users jobs run as, shared by the jobs that
 *     run as them at once; empty for a uid of its own for each job ({@code jobUids})
 * @param jobUids when the agent runs as root and names no job users, the range of uids jobs run as
 *     ({@code LOW-HIGH}; {@code null} for {@value io.grove.agent.job.JobUsers#DEFAULT_UIDS})
 * @param brokerBind the address of the broker's API (loopback by default: co-located services only)
 * @param tls TLS to the scheduler's node port (this node's certificate and key, the scheduler's CA);
 *     {@code null} for plain TCP
 */
public record AgentSettings(String schedulerHost, int schedulerPort, String nodeId, List<String> tags,
        Resources resources, Path workDir, String bindHost, int httpPort, String advertisedHost, int brokerPort,
        BrokerConfig brokerConfig, BrokerResources brokerReserve, Duration logRetention,
        Duration memorySampleInterval, Duration backoffBase, Duration backoffMax, Duration requestTimeout,
        String nodeToken, List<String> jobUsers, String jobUids, io.grove.protocol.Tls tls, String brokerBind) {

    public static final int DEFAULT_HTTP_PORT = 7078;
    public static final int DEFAULT_BROKER_PORT = 7079;
    /**
     * By default 64 MiB are kept for the broker's tasks: room for the agent's own node-local
     * tasks (16 MiB each, no CPU), so a node full of jobs can still prepare their sandboxes.
     */
    public static final BrokerResources DEFAULT_RESERVE = new BrokerResources(0, 64L << 20);

    public AgentSettings {
        tags = List.copyOf(tags);
        jobUsers = jobUsers == null ? List.of() : List.copyOf(jobUsers);
        brokerBind = brokerBind == null ? "127.0.0.1" : brokerBind;
    }

    /** TLS to the scheduler's node port. */
    public AgentSettings withTls(io.grove.protocol.Tls value) {
        return new AgentSettings(schedulerHost, schedulerPort, nodeId, tags, resources, workDir, bindHost, httpPort,
                advertisedHost, brokerPort, brokerConfig, brokerReserve, logRetention, memorySampleInterval, backoffBase,
                backoffMax, requestTimeout, nodeToken, jobUsers, jobUids, value, brokerBind);
    }

    /** The range of uids jobs run as when the agent is root. */
    public AgentSettings withJobUids(String uids) {
        return new AgentSettings(schedulerHost, schedulerPort, nodeId, tags, resources, workDir, bindHost, httpPort,
                advertisedHost, brokerPort, brokerConfig, brokerReserve, logRetention, memorySampleInterval, backoffBase,
                backoffMax, requestTimeout, nodeToken, List.of(), uids, tls, brokerBind);
    }

    /** The named users jobs run as when the agent is root. */
    public AgentSettings withJobUsers(List<String> users) {
        return new AgentSettings(schedulerHost, schedulerPort, nodeId, tags, resources, workDir, bindHost, httpPort,
                advertisedHost, brokerPort, brokerConfig, brokerReserve, logRetention, memorySampleInterval, backoffBase,
                backoffMax, requestTimeout, nodeToken, users, null, tls, brokerBind);
    }

    /**
     * The defaults of {@code grove agent} for a scheduler at {@code host:port}: loopback endpoints on
     * the default ports, the built-in broker configuration and reserve, 24 h of logs, memory sampled
     * every second, backoff from 0.5 s to 30 s, replies within 10 s.
     */
    public static AgentSettings defaults(String host, int port, Path workDir, Resources resources) {
        return new AgentSettings(host, port, null, List.of(), resources, workDir, "127.0.0.1", DEFAULT_HTTP_PORT, null,
                DEFAULT_BROKER_PORT, BrokerConfig.builtIn(), DEFAULT_RESERVE, Duration.ofHours(24), Duration.ofSeconds(1),
                Duration.ofMillis(500), Duration.ofSeconds(30), Duration.ofSeconds(10), null, List.of(), null, null, "127.0.0.1");
    }

    public AgentSettings withNodeId(String id) {
        return new AgentSettings(schedulerHost, schedulerPort, id, tags, resources, workDir, bindHost, httpPort,
                advertisedHost, brokerPort, brokerConfig, brokerReserve, logRetention, memorySampleInterval, backoffBase,
                backoffMax, requestTimeout, nodeToken, jobUsers, jobUids, tls, brokerBind);
    }

    /** The HTTP endpoint's port and the broker's loopback port (0: any free one; broker -1: none). */
    public AgentSettings withPorts(int http, int broker) {
        return new AgentSettings(schedulerHost, schedulerPort, nodeId, tags, resources, workDir, bindHost, http,
                advertisedHost, broker, brokerConfig, brokerReserve, logRetention, memorySampleInterval, backoffBase,
                backoffMax, requestTimeout, nodeToken, jobUsers, jobUids, tls, brokerBind);
    }

    /** The cluster's node token to present in the handshake. */
    public AgentSettings withNodeToken(String token) {
        return new AgentSettings(schedulerHost, schedulerPort, nodeId, tags, resources, workDir, bindHost, httpPort,
                advertisedHost, brokerPort, brokerConfig, brokerReserve, logRetention, memorySampleInterval, backoffBase,
                backoffMax, requestTimeout, token, jobUsers, jobUids, tls, brokerBind);
    }

    /** How often memory is sampled, and the first reconnection wait. */
    public AgentSettings withTimings(Duration sampleInterval, Duration firstBackoff) {
        return new AgentSettings(schedulerHost, schedulerPort, nodeId, tags, resources, workDir, bindHost, httpPort,
                advertisedHost, brokerPort, brokerConfig, brokerReserve, logRetention, sampleInterval, firstBackoff,
                backoffMax, requestTimeout, nodeToken, jobUsers, jobUids, tls, brokerBind);
    }
}
