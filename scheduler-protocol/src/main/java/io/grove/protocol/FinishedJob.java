package io.grove.protocol;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * A job that ended on a node since its previous heartbeat.
 *
 * @param jobId the job
 * @param outcome {@code completed} (exit 0), {@code failed} or {@code aborted}
 * @param exitCode the exit code, or {@code null} when the process was killed or never started
 * @param error what went wrong, including the tail of stderr; {@code null} when nothing did
 * @param startedAtMs when the job started, epoch milliseconds (0 if unknown)
 * @param finishedAtMs when it ended, epoch milliseconds (0 if unknown)
 */
public record FinishedJob(String jobId, Outcome outcome, Integer exitCode, String error, long startedAtMs,
        long finishedAtMs) {

    /** How a job ended. */
    public enum Outcome {
        @JsonProperty("completed")
        COMPLETED,
        @JsonProperty("failed")
        FAILED,
        @JsonProperty("aborted")
        ABORTED
    }

    public FinishedJob {
        Checks.required(jobId, "job_id");
        error = Checks.cut(error, Checks.MAX_TEXT);
        if (outcome == null) {
            throw new IllegalArgumentException("'outcome' is required (completed, failed or aborted)");
        }
        Checks.nonNegative(startedAtMs, "started_at_ms");
        Checks.nonNegative(finishedAtMs, "finished_at_ms");
    }
}
