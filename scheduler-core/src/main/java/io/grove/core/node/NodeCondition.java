package io.grove.core.node;

import java.util.List;

/**
 * What a node says of itself besides its resources: the disk space it has for new jobs, and why it
 * cannot start jobs at all, if it cannot.
 *
 * @param diskSpaceFree bytes its work directory has for new jobs' disk orders (free space less its
 *     reserve and what its running jobs ordered but do not use yet); -1 when it does not say
 * @param unschedulable why it cannot start jobs (disk full, broker stuck, cgroups gone), or
 *     {@code null} when it can
 * @param gpusOutOfService its GPUs taken out of service, each with why (they are not in its limits)
 */
public record NodeCondition(long diskSpaceFree, String unschedulable, List<String> gpusOutOfService) {

    /** A node that says nothing more than its resources. */
    public static final NodeCondition UNKNOWN = new NodeCondition(-1, null, List.of());

    /** A node with all its GPUs in service. */
    public NodeCondition(long diskSpaceFree, String unschedulable) {
        this(diskSpaceFree, unschedulable, List.of());
    }

    public NodeCondition {
        diskSpaceFree = Math.max(-1, diskSpaceFree);
        unschedulable = unschedulable == null || unschedulable.isBlank() ? null : unschedulable;
        gpusOutOfService = gpusOutOfService == null ? List.of() : List.copyOf(gpusOutOfService);
    }

    /** Whether the node can start jobs. */
    public boolean schedulable() {
        return unschedulable == null;
    }

    /** The disk space new jobs may order here; unlimited when the node does not say. */
    public long diskForJobs() {
        return diskSpaceFree < 0 ? Long.MAX_VALUE : diskSpaceFree;
    }
}
