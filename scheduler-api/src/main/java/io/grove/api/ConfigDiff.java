package io.grove.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;

/**
 * {@code POST /api/v1/config/diff}: what a candidate pools file would change, the removed trees and
 * pools still in use (a reload would be refused), and per tree every pool's fair share now and under
 * the candidate for the current demands.
 */
public record ConfigDiff(List<Change> changes, List<InUse> inUse, Map<String, List<PoolShares>> fairShares) {

    /**
     * @param kind {@code tree_added}, {@code tree_removed}, {@code tree_changed}, {@code pool_added},
     *     {@code pool_removed} or {@code pool_changed}
     * @param attributes the changed attributes
     */
    public record Change(String tree, String pool, String kind, List<String> attributes) {
    }

    /** A removed tree or pool with unfinished operations. */
    public record InUse(String tree, String pool, int operations) {
    }

    /** @param fairShareNow absent for a pool the candidate adds */
    public record PoolShares(String pool, @JsonInclude(JsonInclude.Include.ALWAYS) String parent, Double fairShareNow,
            double fairShareNew, double demandShare) {
    }
}
