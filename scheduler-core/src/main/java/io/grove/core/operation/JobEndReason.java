package io.grove.core.operation;

import java.util.Locale;

/** Why a job attempt ended other than by completing. */
public enum JobEndReason {
    /** The job exited non-zero or broke a limit on its node. */
    FAILED,
    /** Taken back for a starving operation. */
    PREEMPTED,
    /** Interrupted because its graceful operation was above its fair share. */
    GRACEFUL_PREEMPTION,
    /** Taken back because its operation or a pool above it used more than its resource limits. */
    RESOURCE_LIMITS_VIOLATED,
    /** Its node had more running than its limits allow. */
    RESOURCE_OVERCOMMIT,
    /** Its node was lost beyond the registration timeout. */
    NODE_OFFLINE,
    /** The node ran a job the scheduler did not know, or reported it aborted. */
    ABORTED_BY_NODE,
    /** The operation was aborted or failed. */
    OPERATION_FINISHED,
    /**
     * Another rank of its gang failed, was lost or preempted, or the gang's plan was dropped: every
     * rank stops and the gang starts again as a whole (not counted as a failure).
     */
    GANG_RESTART,
    /** It ran past its time limit and was stopped (a failure: it is retried up to max_failed_job_count). */
    TIME_LIMIT;

    private final String key = name().toLowerCase(Locale.ROOT);

    /** The name in lower case, as the API, the journal and the ledger write it (made once). */
    public String key() {
        return key;
    }
}
