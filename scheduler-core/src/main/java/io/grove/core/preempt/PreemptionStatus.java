package io.grove.core.preempt;

/**
 * How well a running job is protected (see docs/scheduling.md#which-jobs-may-be-preempted), from the safest. Walking an operation's
 * jobs from the oldest, a job is non-preemptible while the usage before it is below its fair share
 * times {@code aggressive_preemption_satisfaction_threshold} (or below the absolute
 * {@code non_preemptible_resource_usage_threshold}), aggressively preemptible while it is below
 * the fair share times {@code preemption_satisfaction_threshold}, and preemptible after that.
 */
public enum PreemptionStatus {
    NON_PREEMPTIBLE,
    AGGRESSIVELY_PREEMPTIBLE,
    PREEMPTIBLE
}
