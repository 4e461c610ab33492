package io.grove.server.metrics;

import io.grove.core.cluster.Cluster;
import io.grove.core.cluster.ClusterView;
import io.grove.core.fairshare.ElementKind;
import io.grove.core.fairshare.ElementShares;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The last hour of every pool's fair share, usage and demand (dominant shares), sampled at
 * fair-share updates at most every {@link #INTERVAL}: a bounded ring per pool (a float per value),
 * dropped with its pool. Written and read on the scheduler's thread.
 */
public final class PoolHistory {

    /** The time between two samples of a pool. */
    public static final Duration INTERVAL = Duration.ofSeconds(10);

    /** How far back the history goes. */
    public static final Duration SPAN = Duration.ofHours(1);

    private static final int SLOTS = (int) (SPAN.toSeconds() / INTERVAL.toSeconds());

    /** One sample: when, and the pool's dominant shares of its tree. */
    public record Sample(Instant at, double fairShare, double usageShare, double demandShare) {
    }

    private final Map<String, Map<String, Ring>> trees = new HashMap<>();
    private Instant last;

    /** Samples every pool of every tree, unless the last sample is less than {@link #INTERVAL} old. */
    public void record(ClusterView cluster, Instant now) {
        if (last != null && now.isBefore(last.plus(INTERVAL))) {
            return;
        }
        last = now;
        trees.keySet().retainAll(cluster.treeNames());
        for (String tree : cluster.treeNames()) {
            Map<String, Ring> pools = trees.computeIfAbsent(tree, t -> new HashMap<>());
            Map<String, Ring> kept = new HashMap<>();
            for (ElementShares element : cluster.elements(tree)) {
                if (element.kind() == ElementKind.OPERATION) {
                    continue;
                }
                Ring ring = pools.getOrDefault(element.id(), new Ring());
                ring.add(now.getEpochSecond(), element.fairShare().total().max(), element.usageShare().max(),
                        element.demandShare().max());
                kept.put(element.id(), ring);
            }
            trees.put(tree, kept);
        }
    }

    /** A pool's samples, oldest first; empty for a pool without history. */
    public List<Sample> samples(String tree, String pool) {
        Ring ring = trees.getOrDefault(tree, Map.of()).get(pool);
        return ring == null ? List.of() : ring.samples();
    }

    /** The samples of one pool, oldest overwritten first. */
    private static final class Ring {
        private final long[] at = new long[SLOTS];
        private final float[] values = new float[SLOTS * 3];
        private int next;
        private int size;

        void add(long second, double fair, double usage, double demand) {
            at[next] = second;
            values[3 * next] = (float) fair;
            values[3 * next + 1] = (float) usage;
            values[3 * next + 2] = (float) demand;
            next = (next + 1) % SLOTS;
            size = Math.min(size + 1, SLOTS);
        }

        List<Sample> samples() {
            List<Sample> out = new ArrayList<>(size);
            for (int i = 0; i < size; i++) {
                int slot = (next - size + i + SLOTS) % SLOTS;
                out.add(new Sample(Instant.ofEpochSecond(at[slot]), values[3 * slot], values[3 * slot + 1],
                        values[3 * slot + 2]));
            }
            return out;
        }
    }
}
