package io.grove.agent;

import io.grove.agent.broker.BrokerConfig;
import io.grove.agent.broker.BrokerEvent;
import io.grove.agent.broker.BrokerResources;
import io.grove.agent.gpu.GpuCheck;
import io.grove.agent.gpu.NodeGpus;
import io.grove.agent.image.NodeImages;
import io.grove.agent.job.JobCgroups;
import io.grove.agent.job.JobPolicy;
import io.grove.agent.job.JobRunner;
import io.grove.agent.job.JobUsers;
import io.grove.agent.job.ProcTable;
import io.grove.agent.job.WorkDir;
import io.grove.core.resource.Resources;
import java.time.InstantSource;
import java.util.function.BiConsumer;

/**
 * What an {@link Agent} is built from.
 *
 * @param node everything the node offers (CPU, memory, GPU, network, user slots)
 * @param brokerReserve CPU and memory kept for broker tasks, never offered to the scheduler
 * @param clock epoch milliseconds
 * @param heartbeatSoon asks the daemon for an early heartbeat (a job ended)
 * @param brokerClients delivers broker events to the loopback clients
 * @param logRetentionMs how long archived logs are kept
 * @param policy how jobs are held to their orders (CPU limit, processes, default memory)
 * @param gpus the node's GPUs and who holds them
 * @param gpuCheck the check run before each GPU job
 * @param images how the node runs jobs in container images, or why it does not
 */
public record AgentParts(String nodeId, Resources node, BrokerResources brokerReserve, BrokerConfig brokerConfig,
        WorkDir workDir, JobRunner runner, ProcTable proc, InstantSource clock, Agent.Timers timers,
        Runnable heartbeatSoon, BiConsumer<String, BrokerEvent> brokerClients, AgentListener listener,
        long logRetentionMs, JobUsers jobUsers, JobCgroups cgroups, JobPolicy policy, NodeGpus gpus, GpuCheck gpuCheck,
        NodeImages images) {

    /** Parts of a node that runs no image jobs. */
    public AgentParts(String nodeId, Resources node, BrokerResources brokerReserve, BrokerConfig brokerConfig,
            WorkDir workDir, JobRunner runner, ProcTable proc, InstantSource clock, Agent.Timers timers,
            Runnable heartbeatSoon, BiConsumer<String, BrokerEvent> brokerClients, AgentListener listener,
            long logRetentionMs, JobUsers jobUsers, JobCgroups cgroups, JobPolicy policy, NodeGpus gpus, GpuCheck gpuCheck) {
        this(nodeId, node, brokerReserve, brokerConfig, workDir, runner, proc, clock, timers, heartbeatSoon, brokerClients,
                listener, logRetentionMs, jobUsers, cgroups, policy, gpus, gpuCheck,
                NodeImages.none("no image support was set up for this agent"));
    }

    /** Parts of a node without GPUs. */
    public AgentParts(String nodeId, Resources node, BrokerResources brokerReserve, BrokerConfig brokerConfig,
            WorkDir workDir, JobRunner runner, ProcTable proc, InstantSource clock, Agent.Timers timers,
            Runnable heartbeatSoon, BiConsumer<String, BrokerEvent> brokerClients, AgentListener listener,
            long logRetentionMs, JobUsers jobUsers, JobCgroups cgroups, JobPolicy policy) {
        this(nodeId, node, brokerReserve, brokerConfig, workDir, runner, proc, clock, timers, heartbeatSoon, brokerClients,
                listener, logRetentionMs, jobUsers, cgroups, policy, NodeGpus.none(), GpuCheck.none());
    }
}
