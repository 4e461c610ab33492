package io.grove.core.pool;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Everything in {@code pools.yaml}: the pool trees by name and the default tree.
 *
 * @param defaultTree the tree of operations that name none
 * @param trees the trees in file order
 */
public record PoolsConfig(String defaultTree, Map<String, PoolTreeConfig> trees) {

    public PoolsConfig {
        trees = Collections.unmodifiableMap(new LinkedHashMap<>(trees));
    }
}
