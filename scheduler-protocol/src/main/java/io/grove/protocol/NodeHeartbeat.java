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
 */
public record NodeHeartbeat(String nodeId, Resources resourceLimits, Resources resourceUsage,
        List<RunningJob> runningJobs, List<FinishedJob> finishedJobs,
        @JsonInclude(JsonInclude.Include.NON_NULL)
        Boolean delta,
        @JsonInclude(JsonInclude.Include.NON_EMPTY)
        List<RunningJob> startedJobs) implements Message {

    /** A heartbeat with the full running list (every version). */
    public NodeHeartbeat(String nodeId, Resources resourceLimits, Resources resourceUsage, List<RunningJob> runningJobs,
            List<FinishedJob> finishedJobs) {
        this(nodeId, resourceLimits, resourceUsage, runningJobs, finishedJobs, null, List.of());
    }

    /** A delta heartbeat: what started and what ended since the previous acknowledged one. */
    public static NodeHeartbeat delta(String nodeId, Resources resourceLimits, Resources resourceUsage,
            List<RunningJob> started, List<FinishedJob> finished) {
        return new NodeHeartbeat(nodeId, resourceLimits, resourceUsage, List.of(), finished, true, started);
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
        if (Boolean.TRUE.equals(delta) && !runningJobs.isEmpty()) {
            throw new IllegalArgumentException("a delta heartbeat lists 'started_jobs', not 'running_jobs'");
        }
        if (!Boolean.TRUE.equals(delta) && !startedJobs.isEmpty()) {
            throw new IllegalArgumentException("'started_jobs' goes with 'delta': true");
        }
    }
}
