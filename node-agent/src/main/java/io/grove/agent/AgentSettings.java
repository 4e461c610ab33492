package io.grove.agent;

import io.grove.agent.broker.BrokerConfig;
import io.grove.agent.broker.BrokerResources;
import io.grove.agent.gpu.GpuSettings;
import io.grove.agent.image.ImageSettings;
import io.grove.agent.job.JobNetwork;
import io.grove.agent.job.JobPolicy;
import io.grove.core.node.NodeTopology;
import io.grove.core.resource.Resources;
import io.grove.protocol.Tls;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
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
 * @param otherSchedulers more schedulers of a high-availability group ({@code HOST:PORT}), tried in
 *     turn after the first when one cannot be reached; a standby that names the leader sends the agent there
 * @param jobPolicy how jobs are held to their orders: CPU limit, processes, default memory
 * @param gpus how the node's GPUs are found and checked
 * @param images how the node runs jobs in container images
 * @param jobNetwork what jobs may not reach on the network
 * @param topology where the node sits in the network ({@code --topology block=b1,rack=r07}), told to the
 *     scheduler in every handshake
 */
public record AgentSettings(String schedulerHost, int schedulerPort, String nodeId, List<String> tags,
        Resources resources, Path workDir, String bindHost, int httpPort, String advertisedHost, int brokerPort,
        BrokerConfig brokerConfig, BrokerResources brokerReserve, Duration logRetention,
        Duration memorySampleInterval, Duration backoffBase, Duration backoffMax, Duration requestTimeout,
        String nodeToken, List<String> jobUsers, String jobUids, Tls tls, String brokerBind,
        List<String> otherSchedulers, JobPolicy jobPolicy, GpuSettings gpus,
        ImageSettings images, JobNetwork jobNetwork, NodeTopology topology) {

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
        otherSchedulers = otherSchedulers == null ? List.of() : List.copyOf(otherSchedulers);
        jobPolicy = jobPolicy == null ? JobPolicy.DEFAULTS : jobPolicy;
        gpus = gpus == null ? GpuSettings.DEFAULTS : gpus;
        images = images == null ? ImageSettings.DEFAULTS : images;
        jobNetwork = jobNetwork == null ? JobNetwork.DEFAULTS : jobNetwork;
        topology = topology == null ? NodeTopology.NONE : topology;
    }

    /** Every scheduler to try, {@code HOST:PORT}, the first one first. */
    public List<String> schedulers() {
        List<String> all = new ArrayList<>();
        all.add(schedulerHost + ":" + schedulerPort);
        all.addAll(otherSchedulers);
        return all;
    }

    /** Defaults for a scheduler address, a work directory and the node's resources. */
    public static AgentSettings defaults(String host, int port, Path workDir, Resources resources) {
        return builder(host, port, workDir, resources).build();
    }

    /** A builder with the defaults for a scheduler address, a work directory and the node's resources. */
    public static Builder builder(String host, int port, Path workDir, Resources resources) {
        Builder b = new Builder();
        b.schedulerHost = host;
        b.schedulerPort = port;
        b.workDir = workDir;
        b.resources = resources;
        return b;
    }

    /** A builder holding these settings, to change some of them. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.schedulerHost = schedulerHost;
        b.schedulerPort = schedulerPort;
        b.otherSchedulers = otherSchedulers;
        b.nodeId = nodeId;
        b.tags = tags;
        b.topology = topology;
        b.resources = resources;
        b.workDir = workDir;
        b.bindHost = bindHost;
        b.httpPort = httpPort;
        b.advertisedHost = advertisedHost;
        b.brokerPort = brokerPort;
        b.brokerConfig = brokerConfig;
        b.brokerReserve = brokerReserve;
        b.logRetention = logRetention;
        b.memorySampleInterval = memorySampleInterval;
        b.backoffBase = backoffBase;
        b.backoffMax = backoffMax;
        b.requestTimeout = requestTimeout;
        b.nodeToken = nodeToken;
        b.jobUsers = jobUsers;
        b.jobUids = jobUids;
        b.tls = tls;
        b.brokerBind = brokerBind;
        b.jobPolicy = jobPolicy;
        b.gpus = gpus;
        b.images = images;
        b.jobNetwork = jobNetwork;
        return b;
    }

    /** TLS to the scheduler's node port. */
    public AgentSettings withTls(Tls value) {
        return toBuilder().tls(value).build();
    }

    /** Jobs run as uids leased from this range (LOW-HIGH); named users are dropped. */
    public AgentSettings withJobUids(String uids) {
        return toBuilder().jobUsers(List.of()).jobUids(uids).build();
    }

    /** Jobs run as these named users; a uid range is dropped. */
    public AgentSettings withJobUsers(List<String> users) {
        return toBuilder().jobUsers(users).jobUids(null).build();
    }

    public AgentSettings withNodeId(String id) {
        return toBuilder().nodeId(id).build();
    }

    public AgentSettings withPorts(int http, int broker) {
        return toBuilder().httpPort(http).brokerPort(broker).build();
    }

    public AgentSettings withNodeToken(String token) {
        return toBuilder().nodeToken(token).build();
    }

    public AgentSettings withTimings(Duration sampleInterval, Duration firstBackoff) {
        return toBuilder().memorySampleInterval(sampleInterval).backoffBase(firstBackoff).build();
    }

    /** Settings one by one; unset ones keep their defaults. */
    public static final class Builder {
        private String schedulerHost;
        private List<String> otherSchedulers = List.of();
        private int schedulerPort;
        private String nodeId;
        private List<String> tags = List.of();
        private NodeTopology topology = NodeTopology.NONE;
        private Resources resources;
        private Path workDir;
        private String bindHost = "127.0.0.1";
        private int httpPort = DEFAULT_HTTP_PORT;
        private String advertisedHost;
        private int brokerPort = DEFAULT_BROKER_PORT;
        private BrokerConfig brokerConfig = BrokerConfig.builtIn();
        private BrokerResources brokerReserve = DEFAULT_RESERVE;
        private Duration logRetention = Duration.ofHours(24);
        private Duration memorySampleInterval = Duration.ofSeconds(1);
        private Duration backoffBase = Duration.ofMillis(500);
        private Duration backoffMax = Duration.ofSeconds(30);
        private Duration requestTimeout = Duration.ofSeconds(10);
        private String nodeToken;
        private List<String> jobUsers = List.of();
        private String jobUids;
        private Tls tls;
        private String brokerBind = "127.0.0.1";
        private JobPolicy jobPolicy = JobPolicy.DEFAULTS;
        private GpuSettings gpus = GpuSettings.DEFAULTS;
        private ImageSettings images = ImageSettings.DEFAULTS;
        private JobNetwork jobNetwork = JobNetwork.DEFAULTS;

        public Builder jobNetwork(JobNetwork value) {
            jobNetwork = value;
            return this;
        }

        public Builder images(ImageSettings value) {
            images = value;
            return this;
        }

        public Builder gpus(GpuSettings value) {
            gpus = value;
            return this;
        }

        private Builder() {
        }

        public Builder jobPolicy(JobPolicy value) {
            jobPolicy = value;
            return this;
        }

        public Builder nodeId(String value) {
            nodeId = value;
            return this;
        }

        public Builder tags(List<String> value) {
            tags = value;
            return this;
        }

        public Builder bindHost(String value) {
            bindHost = value;
            return this;
        }

        public Builder httpPort(int value) {
            httpPort = value;
            return this;
        }

        public Builder advertisedHost(String value) {
            advertisedHost = value;
            return this;
        }

        public Builder brokerPort(int value) {
            brokerPort = value;
            return this;
        }

        public Builder brokerConfig(BrokerConfig value) {
            brokerConfig = value;
            return this;
        }

        public Builder brokerReserve(BrokerResources value) {
            brokerReserve = value;
            return this;
        }

        public Builder logRetention(Duration value) {
            logRetention = value;
            return this;
        }

        public Builder memorySampleInterval(Duration value) {
            memorySampleInterval = value;
            return this;
        }

        public Builder backoffBase(Duration value) {
            backoffBase = value;
            return this;
        }

        public Builder backoffMax(Duration value) {
            backoffMax = value;
            return this;
        }

        public Builder requestTimeout(Duration value) {
            requestTimeout = value;
            return this;
        }

        public Builder nodeToken(String value) {
            nodeToken = value;
            return this;
        }

        public Builder jobUsers(List<String> value) {
            jobUsers = value;
            return this;
        }

        public Builder jobUids(String value) {
            jobUids = value;
            return this;
        }

        public Builder tls(Tls value) {
            tls = value;
            return this;
        }

        public Builder brokerBind(String value) {
            brokerBind = value;
            return this;
        }

        public Builder schedulerHost(String value) {
            schedulerHost = value;
            return this;
        }

        public Builder otherSchedulers(List<String> value) {
            otherSchedulers = value;
            return this;
        }

        public Builder schedulerPort(int value) {
            schedulerPort = value;
            return this;
        }

        public Builder topology(NodeTopology value) {
            topology = value;
            return this;
        }

        public Builder resources(Resources value) {
            resources = value;
            return this;
        }

        public Builder workDir(Path value) {
            workDir = value;
            return this;
        }

        public AgentSettings build() {
            return new AgentSettings(schedulerHost, schedulerPort, nodeId, tags, resources, workDir, bindHost, httpPort, advertisedHost, brokerPort, brokerConfig, brokerReserve, logRetention, memorySampleInterval, backoffBase, backoffMax, requestTimeout, nodeToken, jobUsers, jobUids, tls, brokerBind, otherSchedulers, jobPolicy, gpus, images, jobNetwork, topology);
        }
    }
}
