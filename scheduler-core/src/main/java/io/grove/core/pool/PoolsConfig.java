package io.grove.core.pool;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Everything in {@code pools.yaml}: the pool trees by name and the default tree.
 *
 * @param defaultTree the tree of operations that name none
 * @param trees the trees in file order
 * @param access who may submit to and administer which pools
 */
public record PoolsConfig(String defaultTree, Map<String, PoolTreeConfig> trees, AccessControl access) {

    public PoolsConfig {
        trees = Collections.unmodifiableMap(new LinkedHashMap<>(trees));
        access = access == null ? AccessControl.OPEN : access;
    }

    /** An open configuration: no access rules. */
    public PoolsConfig(String defaultTree, Map<String, PoolTreeConfig> trees) {
        this(defaultTree, trees, AccessControl.OPEN);
    }
}
