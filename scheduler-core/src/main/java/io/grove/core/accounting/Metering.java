package io.grove.core.accounting;

import io.grove.core.resource.ResourceType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Integrates what every pool of one tree uses and is promised into resource-seconds per hour, as
 * YTsaurus meters pools: a sample holds from its instant until the next one (a step, as the
 * scheduler sees its state between updates), and an interval that spans an hour boundary is split
 * exactly there. Where the last metering left off is kept with the rows ({@link #meteredUntil}), so
 * that after a restart or a takeover metering resumes from that instant: the first sample after it
 * also covers the gap, and an hour half before and half after the restart is whole. Pure: the
 * caller gives the time and takes the rows.
 */
public final class Metering {

    /** An hour, in seconds. */
    public static final long HOUR = 3600;

    private final String tree;
    /** The last sample, which holds until the next one. */
    private Map<String, PoolSample> last = Map.of();
    /** Epoch milliseconds up to which resource-seconds have been added; -1 before the first sample. */
    private long meteredUntilMs;
    /** Resource-seconds not yet taken, by pool, hour and kind. */
    private final Map<Key, double[]> pending = new LinkedHashMap<>();

    private record Key(String pool, long hour, MeterKind kind) {
    }

    /**
     * @param resumeFromMs where metering left off (from the rows already written), or -1 for none:
     *     the first sample then starts the metering
     */
    public Metering(String tree, long resumeFromMs) {
        this.tree = tree;
        this.meteredUntilMs = resumeFromMs;
    }

    public String tree() {
        return tree;
    }

    /** Epoch milliseconds up to which the rows taken and pending hold resource-seconds; -1 for none. */
    public long meteredUntil() {
        return meteredUntilMs;
    }

    /**
     * The pools' state at {@code nowMs}. The previous sample is integrated from where metering left
     * off to {@code nowMs}; the first sample after a resume integrates the gap with its own values.
     * A time before where metering left off (a clock that went back) adds nothing.
     */
    public void sample(long nowMs, List<PoolSample> pools) {
        Map<String, PoolSample> current = new HashMap<>(pools.size() * 2);
        for (PoolSample pool : pools) {
            current.put(pool.pool(), pool);
        }
        if (meteredUntilMs >= 0 && nowMs > meteredUntilMs) {
            Map<String, PoolSample> holding = last.isEmpty() ? current : last;
            integrate(holding, meteredUntilMs, nowMs);
        }
        if (meteredUntilMs < 0 || nowMs > meteredUntilMs) {
            meteredUntilMs = nowMs;
        }
        last = current;
    }

    private void integrate(Map<String, PoolSample> holding, long fromMs, long toMs) {
        long at = fromMs;
        while (at < toMs) {
            long hour = Math.floorDiv(at, HOUR * 1000) * HOUR;
            long end = Math.min(toMs, (hour + HOUR) * 1000);
            double seconds = (end - at) / 1000.0;
            for (PoolSample pool : holding.values()) {
                for (MeterKind kind : MeterKind.values()) {
                    double[] amounts = pool.amounts()[kind.ordinal()];
                    if (isZero(amounts)) {
                        continue;
                    }
                    double[] sum = pending.computeIfAbsent(new Key(pool.pool(), hour, kind), k -> new double[ResourceType.COUNT]);
                    for (int r = 0; r < sum.length; r++) {
                        sum[r] += amounts[r] * seconds;
                    }
                }
            }
            at = end;
        }
    }

    private static boolean isZero(double[] amounts) {
        for (double amount : amounts) {
            if (amount != 0) {
                return false;
            }
        }
        return true;
    }

    /** The resource-seconds added since the last call, to add to the stored hours, with {@link #meteredUntil}. */
    public List<HourlyUsage> drain() {
        List<HourlyUsage> rows = new ArrayList<>(pending.size());
        pending.forEach((key, seconds) -> rows.add(new HourlyUsage(tree, key.pool(), key.hour(), key.kind(), seconds)));
        pending.clear();
        return rows;
    }

    /** How many rows are pending. */
    public int pendingRows() {
        return pending.size();
    }
}
