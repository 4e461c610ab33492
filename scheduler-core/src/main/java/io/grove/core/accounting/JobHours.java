package io.grove.core.accounting;

import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.resource.ResourceType;
import io.grove.core.resource.Resources;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What pools used, exactly, from their jobs' intervals: a job holds what it ordered from its start
 * to its end, and every pool on its path up to the root (the root included) used that much then.
 * An interval is split exactly at hour boundaries, so a job of 4 cpus from 09:50 to 10:10 gives
 * its pools 2,400 cpu-seconds in the 09:00 hour and 2,400 in the 10:00 hour. Sums of many jobs
 * are kept by tree, pool and hour ({@link #rows}); pure.
 */
public final class JobHours {

    private final Map<Key, double[]> sums = new LinkedHashMap<>();
    /** {@link #pools(String)} of the paths seen: the jobs of a batch share a few. */
    private final Map<String, List<String>> poolsOf = new HashMap<>();

    private record Key(String tree, String pool, long hour) {
    }

    /** Adds a finished job's record; one without a tree or a pool's path (its operation was unknown) adds nothing. */
    public JobHours add(JobRecord job) {
        if (job.tree() != null && job.poolPath() != null) {
            List<String> pools = poolsOf.computeIfAbsent(job.poolPath(), path -> List.copyOf(pools(path)));
            add(job.tree(), pools, job.resources(), job.startMs(), job.endMs());
        }
        return this;
    }

    /**
     * Adds what a job held in {@code [startMs, endMs)} to each of {@code pools}, by hour.
     *
     * @param pools the pools that used it: the job's pool and those above it, the root included
     */
    public JobHours add(String tree, List<String> pools, Resources resources, long startMs, long endMs) {
        if (endMs <= startMs || Resources.ZERO.equals(resources)) {
            return this;
        }
        long at = startMs;
        while (at < endMs) {
            long hour = Math.floorDiv(at, Metering.HOUR * 1000) * Metering.HOUR;
            long end = Math.min(endMs, (hour + Metering.HOUR) * 1000);
            double seconds = (end - at) / 1000.0;
            for (String pool : pools) {
                double[] sum = sums.computeIfAbsent(new Key(tree, pool, hour), k -> new double[ResourceType.COUNT]);
                for (int r = 0; r < ResourceType.COUNT; r++) {
                    sum[r] += resources.get(r) * seconds;
                }
            }
            at = end;
        }
        return this;
    }

    /** The sums, as rows of kind {@link MeterKind#USED} to add to the stored hours. */
    public List<HourlyUsage> rows() {
        List<HourlyUsage> rows = new ArrayList<>(sums.size());
        sums.forEach((key, seconds) -> rows.add(new HourlyUsage(key.tree(), key.pool(), key.hour(), MeterKind.USED,
                seconds.clone())));
        return rows;
    }

    public boolean isEmpty() {
        return sums.isEmpty();
    }

    /**
     * The pools a job of the pool at {@code path} ({@code a/b/c}, from the root, the root left out)
     * used: {@code c}, {@code b}, {@code a} and the root. Pool names hold no {@code /}.
     */
    public static List<String> pools(String path) {
        List<String> pools = new ArrayList<>(4);
        if (!path.isEmpty()) {
            String[] names = path.split("/");
            for (int i = names.length - 1; i >= 0; i--) {
                pools.add(names[i]);
            }
        }
        pools.add(PoolTreeConfig.ROOT);
        return pools;
    }
}
