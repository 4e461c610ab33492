package io.grove.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/** {@code GET /api/v1/pool_trees}: a tree, whether it is the default, its nodes, pools and operations. */
public record PoolTreeView(String name, @JsonProperty("default") boolean isDefault, String nodesFilter,
        @JsonInclude(JsonInclude.Include.ALWAYS) String defaultParentPool, int nodes, int pools, int operations) {
}
