package io.grove.core.operation;

/**
 * How a job is getting on as its node says: what it waits for before its process starts, and the
 * image it runs in.
 *
 * @param jobId the job
 * @param preparing what it waits for before it starts ({@code pulling REF (n of m MiB)}), or
 *     {@code null} once it runs
 * @param imageDigest the digest its image reference resolved to, or {@code null}
 * @param imagePullMs how long its node took to pull and unpack its image (0: cached), or -1 before known
 * @param checkpointAgeMillis how long before the heartbeat the job last reported a checkpoint, or -1
 *     when this status tells none
 */
public record JobStatus(String jobId, String preparing, String imageDigest, long imagePullMs, long checkpointAgeMillis) {

    /** A status that tells no checkpoint. */
    public JobStatus(String jobId, String preparing, String imageDigest, long imagePullMs) {
        this(jobId, preparing, imageDigest, imagePullMs, -1);
    }
}
