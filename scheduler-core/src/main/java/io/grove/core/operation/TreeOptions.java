package io.grove.core.operation;

import io.grove.core.resource.Resources;

/**
 * An operation's options for one pool tree ({@code scheduling_options_per_pool_tree}); unset fields
 * ({@code null}) take the spec's top-level values.
 */
public record TreeOptions(String pool, Double weight, Resources resourceLimits, String schedulingTagFilter) {

    public static final TreeOptions NONE = new TreeOptions(null, null, null, null);

    /** Options without a scheduling tag filter of their own. */
    public TreeOptions(String pool, Double weight, Resources resourceLimits) {
        this(pool, weight, resourceLimits, null);
    }

    public TreeOptions {
        if (weight != null && !SpecBounds.weightInRange(weight)) {
            throw new IllegalArgumentException(SpecBounds.weightProblem(weight));
        }
    }
}
