package io.grove.core.pool;

/**
 * What a tree's nodes hold a job to when its spec orders none of it (tree attributes
 * {@code default_job_memory} and {@code default_job_disk_space}). Limits on the node, not orders:
 * they do not count in fair shares or placement.
 *
 * @param memoryBytes the memory limit of a job that orders no memory; 0 for the node's own default
 * @param diskSpaceBytes the disk limit of a job that orders no disk_space; 0 for the node's own default
 */
public record JobDefaults(long memoryBytes, long diskSpaceBytes) {

    /** No defaults of the tree's: each node's own hold. */
    public static final JobDefaults NODE = new JobDefaults(0, 0);

    public JobDefaults {
        if (memoryBytes < 0 || diskSpaceBytes < 0) {
            throw new IllegalArgumentException("job defaults must not be negative: memory " + memoryBytes + ", disk "
                    + diskSpaceBytes);
        }
    }
}
