package io.grove.protocol;

import io.grove.core.resource.Resources;
import java.util.List;

/**
 * A node's periodic report.
 *
 * @param nodeId the node
 * @param resourceLimits what it offers now
 * @param resourceUsage what its jobs use now
 * @param runningJobs the jobs it runs
 * @param finishedJobs the jobs that ended since the previous heartbeat
 */
public record NodeHeartbeat(String nodeId, Resources resourceLimits, Resources resourceUsage,
        List<RunningJob> runningJobs, List<FinishedJob> finishedJobs) implements Message {

    public NodeHeartbeat {
        Checks.required(nodeId, "node_id");
        Checks.required(resourceLimits, "resource_limits");
        resourceUsage = resourceUsage == null ? Resources.ZERO : resourceUsage;
        runningJobs = Checks.list(runningJobs);
        finishedJobs = Checks.list(finishedJobs);
    }
}
