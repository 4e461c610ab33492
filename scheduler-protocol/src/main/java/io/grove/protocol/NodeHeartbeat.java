package io.grove.protocol;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.grove.core.resource.Resources;
import java.util.List;

/**
 * A node's periodic report.
 *
 * @param nodeId the node
 * @param resourceLimits what it offers now
 * @param resourceUsage what its jobs use now
 * @param runningJobs the jobs it runs (a full list); empty in a delta heartbeat
 * @param finishedJobs the jobs that ended since the previous heartbeat
 * @param delta (version 2) {@code true}: instead of the full list, {@code startedJobs} names the jobs
 *     started since the previous acknowledged heartbeat; absent or {@code false}: a full list
 * @param startedJobs (version 2) in a delta heartbeat, the jobs started since the previous
 *     acknowledged heartbeat
 * @param diskSpaceFree (optional) bytes the node's work directory has for new jobs' disk orders:
 *     free space less the agent's reserve and what running jobs ordered but do not use yet
 * @param unschedulable (optional) why the node cannot start jobs now (disk full, broker stuck,
 *     cgroups gone); the scheduler gives it none while it says so
 * @param gpusOutOfService (optional) the node's GPUs taken out of service, each with why
 * @param jobCpu (optional) CPU time and throttling of some of its jobs: running ones now and then,
 *     ended ones once, in the heartbeat that reports their end
 * @param jobStatus (optional) how jobs are getting on (preparing, their image's digest and pull
 *     time), for those whose status changed since the previous heartbeat
 */
public record NodeHeartbeat(String nodeId, Resources resourceLimits, Resources resourceUsage,
        List<RunningJob> runningJobs, List<FinishedJob> finishedJobs,
        @JsonInclude(JsonInclude.Include.NON_NULL)
        Boolean delta,
        @JsonInclude(JsonInclude.Include.NON_EMPTY)
        List<RunningJob> startedJobs,
        @JsonInclude(JsonInclude.Include.NON_NULL)
        Long diskSpaceFree,
        @JsonInclude(JsonInclude.Include.NON_NULL)
        String unschedulable,
        @JsonInclude(JsonInclude.Include.NON_EMPTY)
        List<String> gpusOutOfService,
        @JsonInclude(JsonInclude.Include.NON_EMPTY)
        List<JobCpu> jobCpu,
        @JsonInclude(JsonInclude.Include.NON_EMPTY)
        List<JobStatus> jobStatus) implements Message {

    /** The most job statuses one heartbeat carries. */
    public static final int MAX_JOB_STATUS = 4096;

    /** A heartbeat without jobs' statuses. */
    public NodeHeartbeat(String nodeId, Resources resourceLimits, Resources resourceUsage, List<RunningJob> runningJobs,
            List<FinishedJob> finishedJobs, Boolean delta, List<RunningJob> startedJobs, Long diskSpaceFree,
            String unschedulable, List<String> gpusOutOfService, List<JobCpu> jobCpu) {
        this(nodeId, resourceLimits, resourceUsage, runningJobs, finishedJobs, delta, startedJobs, diskSpaceFree,
                unschedulable, gpusOutOfService, jobCpu, List.of());
    }

    /** A heartbeat with the full running list (every version). */
    public NodeHeartbeat(String nodeId, Resources resourceLimits, Resources resourceUsage, List<RunningJob> runningJobs,
            List<FinishedJob> finishedJobs) {
        this(nodeId, resourceLimits, resourceUsage, runningJobs, finishedJobs, null, List.of(), null, null, List.of(), List.of());
    }

    /** A heartbeat without the node's condition. */
    public NodeHeartbeat(String nodeId, Resources resourceLimits, Resources resourceUsage, List<RunningJob> runningJobs,
            List<FinishedJob> finishedJobs, Boolean delta, List<RunningJob> startedJobs) {
        this(nodeId, resourceLimits, resourceUsage, runningJobs, finishedJobs, delta, startedJobs, null, null, List.of(), List.of());
    }

    /** A delta heartbeat: what started and what ended since the previous acknowledged one. */
    public static NodeHeartbeat delta(String nodeId, Resources resourceLimits, Resources resourceUsage,
            List<RunningJob> started, List<FinishedJob> finished) {
        return new NodeHeartbeat(nodeId, resourceLimits, resourceUsage, List.of(), finished, true, started);
    }

    /** This heartbeat with the node's condition. */
    public NodeHeartbeat withCondition(Long diskFree, String whyUnschedulable, List<String> gpusOut) {
        return new NodeHeartbeat(nodeId, resourceLimits, resourceUsage, runningJobs, finishedJobs, delta, startedJobs,
                diskFree, whyUnschedulable, gpusOut, jobCpu, jobStatus);
    }

    /** This heartbeat with jobs' CPU. */
    public NodeHeartbeat withJobCpu(List<JobCpu> cpu) {
        return new NodeHeartbeat(nodeId, resourceLimits, resourceUsage, runningJobs, finishedJobs, delta, startedJobs,
                diskSpaceFree, unschedulable, gpusOutOfService, cpu, jobStatus);
    }

    /** This heartbeat with jobs' statuses. */
    public NodeHeartbeat withJobStatus(List<JobStatus> status) {
        return new NodeHeartbeat(nodeId, resourceLimits, resourceUsage, runningJobs, finishedJobs, delta, startedJobs,
                diskSpaceFree, unschedulable, gpusOutOfService, jobCpu, status);
    }

    /** Whether this heartbeat lists only what started. */
    public boolean deltaOnly() {
        return Boolean.TRUE.equals(delta);
    }

    public NodeHeartbeat {
        Checks.required(nodeId, "node_id");
        Checks.required(resourceLimits, "resource_limits");
        resourceUsage = resourceUsage == null ? Resources.ZERO : resourceUsage;
        runningJobs = Checks.list(runningJobs);
        finishedJobs = Checks.list(finishedJobs);
        startedJobs = Checks.list(startedJobs);
        if (diskSpaceFree != null && diskSpaceFree < 0) {
            throw new IllegalArgumentException("'disk_space_free' must not be negative, got " + diskSpaceFree);
        }
        Checks.bounded(unschedulable, "unschedulable", 1024);
        gpusOutOfService = Checks.list(gpusOutOfService);
        if (gpusOutOfService.size() > RunningJob.MAX_GPUS) {
            throw new IllegalArgumentException("'gpus_out_of_service' has " + gpusOutOfService.size() + " entries, above the "
                    + RunningJob.MAX_GPUS + " allowed");
        }
        jobCpu = Checks.list(jobCpu);
        jobStatus = Checks.list(jobStatus);
        if (jobStatus.size() > MAX_JOB_STATUS) {
            throw new IllegalArgumentException("'job_status' has " + jobStatus.size() + " entries, above the "
                    + MAX_JOB_STATUS + " allowed");
        }
        for (int i = 0; i < gpusOutOfService.size(); i++) {
            Checks.bounded(gpusOutOfService.get(i), "gpus_out_of_service[" + i + "]", 1024);
        }
        if (Boolean.TRUE.equals(delta) && !runningJobs.isEmpty()) {
            throw new IllegalArgumentException("a delta heartbeat lists 'started_jobs', not 'running_jobs'");
        }
        if (!Boolean.TRUE.equals(delta) && !startedJobs.isEmpty()) {
            throw new IllegalArgumentException("'started_jobs' goes with 'delta': true");
        }
    }
}
