package io.grove.protocol;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * How a job that its node accepted is getting on before and as it runs: sent when it changes.
 *
 * @param jobId the job
 * @param preparing what it waits for before its process starts (its turn in the node's broker,
 *     its image's pull: {@code pulling REF (n of m MiB)}); {@code null} once it runs
 * @param imageDigest the digest its image reference resolved to, once resolved; {@code null} for
 *     a job that runs on the node itself
 * @param imagePullMs how long the node took to pull and unpack its image (0: it was cached);
 *     {@code null} until known
 * @param checkpointAgeMs how long ago, as the heartbeat leaves the node, the job last reported a
 *     checkpoint (touched {@code $GROVE_CHECKPOINT_FILE}), never before its start; {@code null}: no
 *     new checkpoint. The scheduler dates it by its own clock, so the nodes' clocks do not matter.
 */
public record JobStatus(String jobId,
        @JsonInclude(JsonInclude.Include.NON_NULL) String preparing,
        @JsonInclude(JsonInclude.Include.NON_NULL) String imageDigest,
        @JsonInclude(JsonInclude.Include.NON_NULL) Long imagePullMs,
        @JsonInclude(JsonInclude.Include.NON_NULL) Long checkpointAgeMs) {

    /** A status that tells no checkpoint. */
    public JobStatus(String jobId, String preparing, String imageDigest, Long imagePullMs) {
        this(jobId, preparing, imageDigest, imagePullMs, null);
    }

    /** The longest {@code preparing} text. */
    public static final int MAX_PREPARING = 512;

    public JobStatus {
        Checks.required(jobId, "job_id");
        Checks.bounded(preparing, "preparing", MAX_PREPARING);
        Checks.bounded(imageDigest, "image_digest", 160);
        if (imagePullMs != null && imagePullMs < 0) {
            throw new IllegalArgumentException("'image_pull_ms' must not be negative, got " + imagePullMs);
        }
        if (checkpointAgeMs != null && checkpointAgeMs < 0) {
            throw new IllegalArgumentException("'checkpoint_age_ms' must not be negative, got " + checkpointAgeMs);
        }
    }
}
