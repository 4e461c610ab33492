package io.grove.accounting;

import java.util.Map;

/**
 * Resource-seconds of one group (a pool, a tree, a user or an operation) in a period.
 *
 * @param tree the tree (for pools and trees), or {@code null}
 * @param key the pool, tree, user or operation
 * @param seconds by kind ({@code used}, {@code fair_share}, ...), then by resource ({@code cpu}, ...)
 * @param period the start of its hour or day, epoch seconds, when asked per period; else {@code null}
 */
public record UsageRow(String tree, String key, Map<String, Map<String, Double>> seconds, Long period) {

    public UsageRow(String tree, String key, Map<String, Map<String, Double>> seconds) {
        this(tree, key, seconds, null);
    }
}
