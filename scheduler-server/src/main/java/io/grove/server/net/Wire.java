package io.grove.server.net;

import io.grove.core.node.NodeCondition;
import io.grove.core.node.NodeTopology;
import io.grove.core.schedule.Decision;
import io.grove.core.schedule.Heartbeat;
import io.grove.protocol.FinishedJob;
import io.grove.protocol.HeartbeatReply;
import io.grove.protocol.NodeHeartbeat;
import io.grove.protocol.RunningJob;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** Between wire messages and the core's heartbeats and decisions. */
final class Wire {

    private Wire() {
    }

    static Heartbeat heartbeat(String nodeId, Set<String> tags, NodeHeartbeat message) {
        return heartbeat(nodeId, tags, message, null, NodeTopology.NONE, null);
    }

    /**
     * The heartbeat of a node that runs no image jobs for the reason given ({@code null}: it runs
     * them), at the topology its handshake gave, from the address its connection comes from.
     */
    static Heartbeat heartbeat(String nodeId, Set<String> tags, NodeHeartbeat message, String noImages,
            NodeTopology topology, String address) {
        return new Heartbeat(nodeId, tags, message.resourceLimits(), message.resourceUsage(),
                running(message.deltaOnly() ? message.startedJobs() : message.runningJobs()),
                finished(message.finishedJobs()), message.deltaOnly(),
                message.diskSpaceFree() == null && message.unschedulable() == null && message.gpusOutOfService().isEmpty()
                        && noImages == null
                        ? NodeCondition.UNKNOWN
                        : new NodeCondition(message.diskSpaceFree() == null ? -1 : message.diskSpaceFree(),
                                message.unschedulable(), message.gpusOutOfService(), noImages),
                cpu(message.jobCpu()), status(message.jobStatus()), topology, address);
    }

    static List<io.grove.core.operation.JobStatus> status(List<io.grove.protocol.JobStatus> said) {
        if (said.isEmpty()) {
            return List.of();
        }
        List<io.grove.core.operation.JobStatus> out = new ArrayList<>(said.size());
        for (io.grove.protocol.JobStatus status : said) {
            out.add(new io.grove.core.operation.JobStatus(status.jobId(), status.preparing(), status.imageDigest(),
                    status.imagePullMs() == null ? -1 : status.imagePullMs(),
                    status.checkpointAgeMs() == null ? -1 : status.checkpointAgeMs()));
        }
        return out;
    }

    /** A size, or {@code null} for none (0), so that the frame leaves it out. */
    private static Long positive(long bytes) {
        return bytes > 0 ? bytes : null;
    }

    static List<io.grove.core.operation.JobCpu> cpu(List<io.grove.protocol.JobCpu> counted) {
        if (counted.isEmpty()) {
            return List.of();
        }
        List<io.grove.core.operation.JobCpu> out = new ArrayList<>(counted.size());
        for (io.grove.protocol.JobCpu cpu : counted) {
            out.add(new io.grove.core.operation.JobCpu(cpu.jobId(), cpu.cpuSeconds(), cpu.throttledSeconds(),
                    cpu.throttledShare()));
        }
        return out;
    }

    static List<Heartbeat.RunningJob> running(List<RunningJob> jobs) {
        List<Heartbeat.RunningJob> out = new ArrayList<>(jobs.size());
        for (RunningJob job : jobs) {
            out.add(new Heartbeat.RunningJob(job.jobId(), job.usage(), job.gpus()));
        }
        return out;
    }

    static List<Heartbeat.FinishedJob> finished(List<FinishedJob> jobs) {
        List<Heartbeat.FinishedJob> out = new ArrayList<>(jobs.size());
        for (FinishedJob job : jobs) {
            Heartbeat.Outcome outcome = switch (job.outcome()) {
                case COMPLETED -> Heartbeat.Outcome.COMPLETED;
                case FAILED -> Heartbeat.Outcome.FAILED;
                case ABORTED -> Heartbeat.Outcome.ABORTED;
            };
            out.add(new Heartbeat.FinishedJob(job.jobId(), outcome, job.exitCode(), job.error()));
        }
        return out;
    }

    static HeartbeatReply reply(Decision decision, long nextHeartbeatMs) {
        return reply(decision, nextHeartbeatMs, null);
    }

    /** The reply; {@code resync} is {@code null} for version 1 nodes, which do not know it. */
    static HeartbeatReply reply(Decision decision, long nextHeartbeatMs, Boolean resync) {
        List<HeartbeatReply.JobToStart> starts = new ArrayList<>(decision.starts().size());
        for (Decision.JobStart start : decision.starts()) {
            starts.add(new HeartbeatReply.JobToStart(start.jobId(), start.operationId(), start.task(), start.index(),
                    start.command(), start.env(), start.resources(), positive(start.diskSpace()),
                    positive(start.defaults().memoryBytes()), positive(start.defaults().diskSpaceBytes()), start.image()));
        }
        List<HeartbeatReply.JobToAbort> aborts = new ArrayList<>(decision.aborts().size());
        for (Decision.JobAbort abort : decision.aborts()) {
            aborts.add(new HeartbeatReply.JobToAbort(abort.jobId(), key(abort.reason()), abort.message()));
        }
        List<HeartbeatReply.JobToInterrupt> interrupts = new ArrayList<>(decision.preemptions().size());
        for (Decision.JobPreemption preemption : decision.preemptions()) {
            interrupts.add(new HeartbeatReply.JobToInterrupt(preemption.jobId(), key(preemption.reason()),
                    preemption.preemptorOperationId(), preemption.preemptorJobId(), preemption.grace().toMillis(),
                    preemption.message()));
        }
        return new HeartbeatReply(starts, aborts, interrupts, nextHeartbeatMs, resync);
    }

    static String key(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }
}
