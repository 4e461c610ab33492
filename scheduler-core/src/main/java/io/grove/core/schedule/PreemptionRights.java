package io.grove.core.schedule;

import io.grove.core.operation.Operation;
import io.grove.core.pool.PoolConfig;
import io.grove.core.pool.PoolPreemptionConfig;
import io.grove.core.pool.PreemptionSettings;

/**
 * Which preemption each element of a scheduling index allows, inherited from the root down:
 * aggressive preemption (off below a pool that forbids it), normal preemption (a pool's own
 * switch) and the absolute usage an operation keeps whatever its fair share (the nearest pool's,
 * lowered by the operation's own spec), and how long a job runs before starvation may take it
 * (the nearest pool's {@code min_job_runtime_before_preemption}, the tree's at the root).
 */
final class PreemptionRights {

    /** Whether aggressive preemption may take jobs below the element (inherited). */
    final boolean[] allowAggressive;
    /** Whether the pool lets normal preemption take jobs below it (its own {@code allow_normal_preemption}). */
    final boolean[] allowNormal;
    /** The absolute usage below which an operation keeps every job (NaN = unset), inherited. */
    final double[][] nonPreemptibleThreshold;
    /** Milliseconds a job of the element runs before a starving operation may take it, inherited. */
    final long[] minRuntimeMillis;
    private final PreemptionSettings tree;

    PreemptionRights(int size, PreemptionSettings tree) {
        this.allowAggressive = new boolean[size];
        this.allowNormal = new boolean[size];
        this.nonPreemptibleThreshold = new double[size][];
        this.minRuntimeMillis = new long[size];
        this.tree = tree;
    }

    /** Element {@code at} under {@code up} (-1 for the root): a pool's own settings, or an operation's. */
    void inherit(int at, int up, PoolConfig pool, Operation operation) {
        boolean aggressive = up < 0 || allowAggressive[up];
        boolean normal = true;
        double[] threshold = up < 0 ? tree.nonPreemptibleResourceUsageThreshold().toArray(Double.NaN)
                : nonPreemptibleThreshold[up];
        long minRuntime = up < 0 ? tree.minJobRuntimeBeforePreemption().toMillis() : minRuntimeMillis[up];
        if (pool != null) {
            PoolPreemptionConfig own = pool.preemption();
            aggressive &= own.allowAggressivePreemption() == null || own.allowAggressivePreemption();
            normal = own.allowNormalPreemption() == null || own.allowNormalPreemption();
            if (own.nonPreemptibleResourceUsageThreshold() != null && !own.nonPreemptibleResourceUsageThreshold().isEmpty()) {
                threshold = own.nonPreemptibleResourceUsageThreshold().toArray(Double.NaN);
            }
            if (own.minJobRuntimeBeforePreemption() != null) {
                minRuntime = own.minJobRuntimeBeforePreemption().toMillis();
            }
        }
        minRuntimeMillis[at] = minRuntime;
        allowAggressive[at] = aggressive;
        allowNormal[at] = normal;
        nonPreemptibleThreshold[at] = operation == null ? threshold : operation.spec().preemption().threshold(threshold);
    }
}
