package io.grove.core.schedule;

import io.grove.core.node.NodeCondition;
import io.grove.core.node.NodeTopology;
import io.grove.core.operation.JobCpu;
import io.grove.core.operation.JobStatus;
import io.grove.core.resource.Resources;
import java.util.List;
import java.util.Set;

/**
 * What a node reports on every heartbeat.
 *
 * @param nodeId the node's stable id
 * @param tags the node's tags, which choose its pool tree
 * @param resourceLimits what the node offers
 * @param resourceUsage what its running jobs use, as the node measures it
 * @param runningJobs jobs still running, with their usage; in a delta heartbeat only the jobs that
 *     started since the previous acknowledged one
 * @param finishedJobs jobs that ended since the previous heartbeat
 * @param delta whether {@code runningJobs} holds only what started (the rest is as the scheduler
 *     last knew it); a full list, the default, also finds the jobs the node lost
 * @param condition the node's free disk for jobs and whether it can start jobs at all
 * @param jobCpu CPU time and throttling of some of the node's jobs (running ones now and then,
 *     ended ones once, with their end)
 * @param jobStatus how some of its jobs are getting on (those whose status changed)
 * @param topology where the node sits, widest level first
 * @param address the address the node's connection comes from (where a gang's ranks reach it), or
 *     {@code null} when unknown
 */
public record Heartbeat(
        String nodeId,
        Set<String> tags,
        Resources resourceLimits,
        Resources resourceUsage,
        List<RunningJob> runningJobs,
        List<FinishedJob> finishedJobs,
        boolean delta,
        NodeCondition condition,
        List<JobCpu> jobCpu,
        List<JobStatus> jobStatus,
        NodeTopology topology,
        String address) {

    /** A heartbeat whose address is not known. */
    public Heartbeat(String nodeId, Set<String> tags, Resources resourceLimits, Resources resourceUsage,
            List<RunningJob> runningJobs, List<FinishedJob> finishedJobs, boolean delta, NodeCondition condition,
            List<JobCpu> jobCpu, List<JobStatus> jobStatus, NodeTopology topology) {
        this(nodeId, tags, resourceLimits, resourceUsage, runningJobs, finishedJobs, delta, condition, jobCpu, jobStatus,
                topology, null);
    }

    /** A heartbeat of a node that gives no topology. */
    public Heartbeat(String nodeId, Set<String> tags, Resources resourceLimits, Resources resourceUsage,
            List<RunningJob> runningJobs, List<FinishedJob> finishedJobs, boolean delta, NodeCondition condition,
            List<JobCpu> jobCpu, List<JobStatus> jobStatus) {
        this(nodeId, tags, resourceLimits, resourceUsage, runningJobs, finishedJobs, delta, condition, jobCpu, jobStatus,
                NodeTopology.NONE);
    }

    /** A heartbeat without jobs' statuses. */
    public Heartbeat(String nodeId, Set<String> tags, Resources resourceLimits, Resources resourceUsage,
            List<RunningJob> runningJobs, List<FinishedJob> finishedJobs, boolean delta, NodeCondition condition,
            List<JobCpu> jobCpu) {
        this(nodeId, tags, resourceLimits, resourceUsage, runningJobs, finishedJobs, delta, condition, jobCpu, List.of());
    }

    /** A heartbeat with the node's full running list. */
    public Heartbeat(String nodeId, Set<String> tags, Resources resourceLimits, Resources resourceUsage,
            List<RunningJob> runningJobs, List<FinishedJob> finishedJobs) {
        this(nodeId, tags, resourceLimits, resourceUsage, runningJobs, finishedJobs, false, NodeCondition.UNKNOWN, List.of());
    }

    /** A heartbeat of a node that says nothing of its condition. */
    public Heartbeat(String nodeId, Set<String> tags, Resources resourceLimits, Resources resourceUsage,
            List<RunningJob> runningJobs, List<FinishedJob> finishedJobs, boolean delta) {
        this(nodeId, tags, resourceLimits, resourceUsage, runningJobs, finishedJobs, delta, NodeCondition.UNKNOWN, List.of());
    }

    /** A heartbeat with the node's condition and no jobs' CPU. */
    public Heartbeat(String nodeId, Set<String> tags, Resources resourceLimits, Resources resourceUsage,
            List<RunningJob> runningJobs, List<FinishedJob> finishedJobs, boolean delta, NodeCondition condition) {
        this(nodeId, tags, resourceLimits, resourceUsage, runningJobs, finishedJobs, delta, condition, List.of());
    }

    public Heartbeat {
        if (nodeId == null || nodeId.isEmpty()) {
            throw new IllegalArgumentException("heartbeat without a node id");
        }
        tags = Set.copyOf(tags == null ? Set.of() : tags);
        resourceUsage = resourceUsage == null ? Resources.ZERO : resourceUsage;
        runningJobs = List.copyOf(runningJobs == null ? List.of() : runningJobs);
        finishedJobs = List.copyOf(finishedJobs == null ? List.of() : finishedJobs);
        condition = condition == null ? NodeCondition.UNKNOWN : condition;
        jobCpu = jobCpu == null ? List.of() : jobCpu;
        jobStatus = jobStatus == null ? List.of() : jobStatus;
        topology = topology == null ? NodeTopology.NONE : topology;
    }

    /**
     * A running job as the node sees it.
     *
     * @param devices the UUIDs of the GPUs the node gave it; empty for none
     */
    public record RunningJob(String jobId, Resources usage, List<String> devices) {

        /** A job holding no GPU. */
        public RunningJob(String jobId, Resources usage) {
            this(jobId, usage, List.of());
        }

        public RunningJob {
            devices = devices == null ? List.of() : devices;
        }
    }

    /** How a job ended on the node. */
    public enum Outcome {
        COMPLETED,
        FAILED,
        ABORTED
    }

    /**
     * A job that ended on the node.
     *
     * @param jobId the job
     * @param outcome completed (exit 0), failed, or aborted (killed on the scheduler's or an admin's order)
     * @param exitCode the process's exit code, or {@code null}
     * @param error what went wrong, or {@code null}
     */
    public record FinishedJob(String jobId, Outcome outcome, Integer exitCode, String error) {
    }
}
