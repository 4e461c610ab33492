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
 * @param noImages why it runs no jobs in container images (no OCI runtime, no {@code skopeo}), or
 *     {@code null} when it does
 */
public record NodeCondition(long diskSpaceFree, String unschedulable, List<String> gpusOutOfService, String noImages) {

    /** A node that says nothing more than its resources. */
    public static final NodeCondition UNKNOWN = new NodeCondition(-1, null, List.of(), null);

    /** A node with all its GPUs in service. */
    public NodeCondition(long diskSpaceFree, String unschedulable) {
        this(diskSpaceFree, unschedulable, List.of(), null);
    }

    /** A node that runs image jobs. */
    public NodeCondition(long diskSpaceFree, String unschedulable, List<String> gpusOutOfService) {
        this(diskSpaceFree, unschedulable, gpusOutOfService, null);
    }

    public NodeCondition {
        diskSpaceFree = Math.max(-1, diskSpaceFree);
        unschedulable = unschedulable == null || unschedulable.isBlank() ? null : unschedulable;
        gpusOutOfService = gpusOutOfService == null ? List.of() : List.copyOf(gpusOutOfService);
        noImages = noImages == null || noImages.isBlank() ? null : noImages;
    }

    /** Whether the node runs jobs in container images. */
    public boolean runsImages() {
        return noImages == null;
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
