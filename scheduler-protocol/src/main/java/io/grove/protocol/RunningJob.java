package io.grove.protocol;

import io.grove.core.resource.Resources;

/**
 * A job a node runs, with what it uses now.
 *
 * @param jobId the job
 * @param operationId its operation
 * @param usage measured usage; {@code null} when not measured
 */
public record RunningJob(String jobId, String operationId, Resources usage) {

    public RunningJob {
        Checks.required(jobId, "job_id");
        Checks.bounded(operationId, "operation_id", Checks.MAX_ID);
        usage = usage == null ? Resources.ZERO : usage;
    }
}
