package io.grove.core.fairshare;

import java.time.Duration;

/**
 * {@code infer_children_weights_from_historic_usage}: a pool's children weigh
 * {@code weight × 2^(−h)}, {@code h} being an exponential moving average of their dominant usage
 * share with the pool's {@code historic_usage_aggregation_period} as half-life (zero: the usage at
 * this update). A child that used the whole tree lately weighs half as much as one that used
 * nothing. The averages are carried from update to update like integral volumes.
 */
final class HistoricUsage {

    private HistoricUsage() {
    }

    /** Updates the averages of {@code pool}'s children and lowers their weights; after their usage shares are known. */
    static void apply(CompositeElement pool, UpdateContext context) {
        Duration period = pool.config.historicUsageAggregationPeriod();
        for (Element child : pool.children) {
            double usage = Vec.maxComponent(child.usageShare);
            Double previous = context.historicUsageIn.get(child.id);
            double average = previous == null ? usage : average(previous, usage, period, context.elapsedSeconds);
            context.historicUsageOut.put(child.id, average);
            child.weightMultiplier = Math.pow(2, -average);
        }
    }

    /** The average moved towards {@code usage} by {@code 1 − 2^(−elapsed / half-life)}. */
    static double average(double previous, double usage, Duration halfLife, Double elapsedSeconds) {
        if (elapsedSeconds == null) {
            return previous;
        }
        if (halfLife.isZero()) {
            return usage;
        }
        double seconds = halfLife.toNanos() / 1e9;
        double alpha = 1 - Math.pow(2, -elapsedSeconds / seconds);
        return previous + alpha * (usage - previous);
    }
}
