package io.grove.core.pool;

import java.time.Duration;
import java.util.List;

/**
 * How long a job of a pool may run ({@code default_time_limit}, {@code max_time_limit}), as Slurm's
 * partitions say it with {@code DefaultTime} and {@code MaxTime}: inherited down the pool tree (the
 * nearest pool that sets a default gives it; every maximum on the path holds, the smallest wins).
 *
 * @param defaultLimit the limit of a job whose task sets none, or {@code null}
 * @param maxLimit the most a task may ask for, or {@code null}
 */
public record PoolTimeLimits(Duration defaultLimit, Duration maxLimit) {

    /** Neither set. */
    public static final PoolTimeLimits NONE = new PoolTimeLimits(null, null);

    public PoolTimeLimits {
        if (defaultLimit != null && (defaultLimit.isZero() || defaultLimit.isNegative())) {
            throw new IllegalArgumentException("default_time_limit must be positive, got " + defaultLimit);
        }
        if (maxLimit != null && (maxLimit.isZero() || maxLimit.isNegative())) {
            throw new IllegalArgumentException("max_time_limit must be positive, got " + maxLimit);
        }
        if (defaultLimit != null && maxLimit != null && defaultLimit.compareTo(maxLimit) > 0) {
            throw new IllegalArgumentException("default_time_limit " + defaultLimit + " is above max_time_limit "
                    + maxLimit);
        }
    }

    /** The limits in force for a pool whose own and ancestors' limits are {@code path}, the pool first. */
    public static PoolTimeLimits along(List<PoolTimeLimits> path) {
        Duration defaultLimit = null;
        Duration max = null;
        for (PoolTimeLimits limits : path) {
            if (defaultLimit == null) {
                defaultLimit = limits.defaultLimit();
            }
            if (limits.maxLimit() != null && (max == null || limits.maxLimit().compareTo(max) < 0)) {
                max = limits.maxLimit();
            }
        }
        if (defaultLimit != null && max != null && defaultLimit.compareTo(max) > 0) {
            defaultLimit = max;
        }
        return new PoolTimeLimits(defaultLimit, max);
    }

    /**
     * A job's limit from its task's own ({@code null}: none): the task's, else the default, else the
     * maximum; {@code null} for no limit.
     */
    public Duration jobLimit(Duration own) {
        return own != null ? own : defaultLimit != null ? defaultLimit : maxLimit;
    }

    /** A limit as the spec writes one: {@code 2h}, {@code 90m}, {@code 45s}, {@code 1500ms}. */
    public static String text(Duration limit) {
        long millis = limit.toMillis();
        if (millis % 1000 != 0) {
            return millis + "ms";
        }
        long seconds = millis / 1000;
        return seconds % 3600 == 0 ? seconds / 3600 + "h" : seconds % 60 == 0 ? seconds / 60 + "m" : seconds + "s";
    }
}
