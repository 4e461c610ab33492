package io.grove.api;

import java.util.List;

/**
 * {@code GET /api/v1/pool_trees/{tree}/topology}: the tree's topology levels, widest first, each with
 * its domains, their nodes and what is free on them.
 *
 * @param mainResource the resource {@code largest_free} is measured in (the tree's {@code main_resource})
 */
public record TopologyView(String tree, String mainResource, List<Level> levels) {

    /**
     * One level.
     *
     * @param largestFree the domain with the most of the main resource free (absent when the level has none)
     */
    public record Level(String level, List<Domain> domains, String largestFree) {
    }

    /** One domain: its nodes by id and what is free on them (online nodes that may start jobs). */
    public record Domain(String name, List<String> nodes, Amounts free) {
    }
}
