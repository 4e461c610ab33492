package io.grove.server.metrics;

import io.grove.core.operation.Job;
import io.grove.core.resource.ResourceType;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code grove_pool_resource_seconds_total{kind="used"}}: what each ended job held times how long
 * it ran, added to its pool and every pool above it, as the hours of accounting count it. Written
 * on the scheduler's thread at each job's end without allocating once a pool is known; read by
 * scrapes.
 */
final class UsedCounters {

    private final MeterRegistry registry;
    /** tree, then pool: resource-seconds by resource, and whether each resource's counter is registered. */
    private final Map<String, Map<String, Pool>> trees = new HashMap<>();

    private static final class Pool {
        final double[] seconds = new double[ResourceType.COUNT];
        final boolean[] registered = new boolean[ResourceType.COUNT];
    }

    UsedCounters(MeterRegistry registry) {
        this.registry = registry;
    }

    /** A job ended in the pools {@code toRoot} (its pool first, the root last). */
    void ended(Job job, List<String> toRoot) {
        if (job.startTime() == null || job.finishTime() == null) {
            return;
        }
        double seconds = Math.max(0, job.finishTime().toEpochMilli() - job.startTime().toEpochMilli()) / 1000.0;
        if (seconds == 0) {
            return;
        }
        Map<String, Pool> pools = trees.computeIfAbsent(job.tree(), t -> new HashMap<>());
        for (String name : toRoot) {
            Pool pool = pools.computeIfAbsent(name, p -> new Pool());
            for (int i = 0; i < ResourceType.COUNT; i++) {
                ResourceType r = ResourceType.at(i);
                double amount = job.resources().get(r) * seconds;
                if (amount == 0) {
                    continue;
                }
                if (!pool.registered[r.ordinal()]) {
                    pool.registered[r.ordinal()] = true;
                    int at = r.ordinal();
                    FunctionCounter.builder("grove.pool.resource.seconds", pool, p -> p.seconds[at])
                            .description(SchedulerMetrics.RESOURCE_SECONDS)
                            .tags("tree", job.tree(), "pool", name, "resource", r.key(), "kind", "used").register(registry);
                }
                pool.seconds[r.ordinal()] += amount;
            }
        }
    }
}
