package io.grove.core.pool;

import java.time.Duration;

/**
 * Tree-level starvation settings (see docs/scheduling.md#starvation).
 *
 * @param fairShareStarvationTimeout time below fair share before an element starves
 * @param fairShareAggressiveStarvationTimeout time before it starves aggressively (not shorter)
 * @param fairShareStarvationTolerance below fair share means usage under fair share times this
 * @param enableAggressiveStarvation default for pools that do not set it
 * @param enablePoolStarvation pools, not only operations, can starve
 * @param allocationCountPreemptionTimeoutCoefficient scales operations' timeouts by pending jobs
 */
public record StarvationSettings(
        Duration fairShareStarvationTimeout,
        Duration fairShareAggressiveStarvationTimeout,
        double fairShareStarvationTolerance,
        boolean enableAggressiveStarvation,
        boolean enablePoolStarvation,
        double allocationCountPreemptionTimeoutCoefficient) {

    public static final StarvationSettings DEFAULT = new StarvationSettings(
            Duration.ofSeconds(30), Duration.ofSeconds(120), 0.8, false, true, 1.0);
}
