package io.grove.core.operation;

import io.grove.core.resource.Resources;
import java.time.Duration;

/**
 * An operation's own starvation and preemption settings (spec keys), each unset unless given. They
 * can only make the operation more protected than its pool makes it: the effective starvation
 * tolerance is the smaller of the pool's and the spec's, the effective starvation timeout the
 * longer, and the effective non-preemptible usage the smaller per resource.
 *
 * @param fairShareStarvationTolerance in [0, 1], or {@code null}
 * @param fairShareStarvationTimeoutMillis not negative, or {@code null}
 * @param nonPreemptibleResourceUsageThreshold per resource, unset ones infinite; or {@code null}
 */
public record OperationPreemption(Double fairShareStarvationTolerance, Long fairShareStarvationTimeoutMillis,
        Resources nonPreemptibleResourceUsageThreshold) {

    public static final OperationPreemption NONE = new OperationPreemption(null, null, null);

    public OperationPreemption {
        if (fairShareStarvationTolerance != null && !(fairShareStarvationTolerance >= 0 && fairShareStarvationTolerance <= 1)) {
            throw new IllegalArgumentException("fair_share_starvation_tolerance must be within [0, 1], got "
                    + fairShareStarvationTolerance);
        }
        if (fairShareStarvationTimeoutMillis != null && fairShareStarvationTimeoutMillis < 0) {
            throw new IllegalArgumentException("fair_share_starvation_timeout must not be negative");
        }
    }

    /** The starvation tolerance an operation gets under a pool of {@code inherited}. */
    public double tolerance(double inherited) {
        return fairShareStarvationTolerance == null ? inherited : Math.min(inherited, fairShareStarvationTolerance);
    }

    /** The starvation timeout an operation gets under a pool of {@code inherited}. */
    public Duration timeout(Duration inherited) {
        if (fairShareStarvationTimeoutMillis == null) {
            return inherited;
        }
        Duration own = Duration.ofMillis(fairShareStarvationTimeoutMillis);
        return own.compareTo(inherited) > 0 ? own : inherited;
    }

    /**
     * The non-preemptible usage an operation gets under a pool of {@code inherited} (NaN where
     * unset): the smaller per resource, NaN where neither sets one.
     */
    public double[] threshold(double[] inherited) {
        if (nonPreemptibleResourceUsageThreshold == null) {
            return inherited;
        }
        double[] own = nonPreemptibleResourceUsageThreshold.toArray();
        double[] out = new double[own.length];
        for (int r = 0; r < own.length; r++) {
            double pool = Double.isNaN(inherited[r]) ? Double.POSITIVE_INFINITY : inherited[r];
            double value = Math.min(pool, own[r]);
            out[r] = Double.isInfinite(value) ? Double.NaN : value;
        }
        return out;
    }
}
