package io.grove.api;

import java.util.List;

/**
 * {@code GET /api/v1/pool_trees/{tree}/pools/{pool}/history}: the pool's fair share, usage and
 * demand (dominant shares of its tree) over the last hour, one sample every
 * {@code intervalSeconds} at most, oldest first.
 */
public record PoolHistoryView(String tree, String pool, long intervalSeconds, List<Sample> samples) {

    /** One sample. */
    public record Sample(@Timestamp String at, double fairShare, double usageShare, double demandShare) {
    }
}
