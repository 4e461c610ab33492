package io.grove.core.pool;

import java.time.Duration;

/**
 * A pool's starvation and preemption attributes. Every field is optional: {@code null} inherits the
 * parent's effective value (the tree's at the root).
 */
public record PoolPreemptionConfig(
        Duration fairShareStarvationTimeout,
        Double fairShareStarvationTolerance,
        PartialResources nonPreemptibleResourceUsageThreshold,
        Boolean enableAggressiveStarvation,
        Boolean allowAggressivePreemption,
        Boolean allowNormalPreemption,
        Duration minJobRuntimeBeforePreemption) {

    public static final PoolPreemptionConfig INHERIT = new PoolPreemptionConfig(null, null, null, null, null, null,
            null);

    /** The same, {@code min_job_runtime_before_preemption} left to inherit. */
    public PoolPreemptionConfig(Duration fairShareStarvationTimeout, Double fairShareStarvationTolerance,
            PartialResources nonPreemptibleResourceUsageThreshold, Boolean enableAggressiveStarvation,
            Boolean allowAggressivePreemption, Boolean allowNormalPreemption) {
        this(fairShareStarvationTimeout, fairShareStarvationTolerance, nonPreemptibleResourceUsageThreshold,
                enableAggressiveStarvation, allowAggressivePreemption, allowNormalPreemption, null);
    }
}
