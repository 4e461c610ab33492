package io.grove.protocol;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.grove.core.resource.Resources;
import java.util.List;

/**
 * A job a node runs, with what it uses now.
 *
 * @param jobId the job
 * @param operationId its operation
 * @param usage measured usage; {@code null} when not measured
 * @param gpus the UUIDs of the GPUs the node gave the job; empty for none
 */
public record RunningJob(String jobId, String operationId, Resources usage,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> gpus) {

    /** The most GPUs a job may hold on one node. */
    public static final int MAX_GPUS = 64;

    /** A job holding no GPU. */
    public RunningJob(String jobId, String operationId, Resources usage) {
        this(jobId, operationId, usage, List.of());
    }

    public RunningJob {
        Checks.required(jobId, "job_id");
        Checks.bounded(operationId, "operation_id", Checks.MAX_ID);
        usage = usage == null ? Resources.ZERO : usage;
        gpus = Checks.list(gpus);
        if (gpus.size() > MAX_GPUS) {
            throw new IllegalArgumentException("'gpus' has " + gpus.size() + " entries, above the " + MAX_GPUS + " allowed");
        }
        for (int i = 0; i < gpus.size(); i++) {
            Checks.bounded(gpus.get(i), "gpus[" + i + "]", Checks.MAX_ID);
        }
    }
}
