package io.grove.core.operation;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An operation's pool in each of its trees as the path from it up to the tree's root, made once
 * and kept with the operation until it moves or the trees are reloaded: every event and record of
 * its jobs shares the one map instead of walking the tree for each.
 *
 * @param generation the registry's trees when it was made
 * @param byTree tree to path, the operation's first tree first; unmodifiable
 */
record PoolPaths(long generation, Map<String, List<String>> byTree) {

    static Map<String, List<String>> of(Operation operation, OperationRegistry registry, long generation) {
        PoolPaths kept = operation.paths();
        if (kept != null && kept.generation == generation) {
            return kept.byTree;
        }
        Map<String, List<String>> paths = new LinkedHashMap<>();
        for (Map.Entry<String, String> placed : operation.poolByTree().entrySet()) {
            TreePools pools = registry.treeNames().contains(placed.getKey()) ? registry.pools(placed.getKey()) : null;
            paths.put(placed.getKey(), pools != null && pools.contains(placed.getValue())
                    ? List.copyOf(pools.pathToRoot(placed.getValue())) : List.of(placed.getValue()));
        }
        Map<String, List<String>> made = Collections.unmodifiableMap(paths);
        operation.paths(new PoolPaths(generation, made));
        return made;
    }

    /**
     * Where a submission would go, per tree: the path from its pool (an ephemeral one that does not
     * exist yet included) up to the root; see {@link OperationsView#placementPaths}.
     */
    static Map<String, List<String>> placement(OperationSpec spec, String user, String defaultTree,
            Map<String, TreePools> trees) {
        Map<String, List<String>> paths = new LinkedHashMap<>();
        List<String> treeNames = spec.poolTrees().isEmpty() ? List.of(defaultTree) : spec.poolTrees();
        for (String tree : treeNames) {
            TreePools pools = trees.get(tree);
            if (pools == null) {
                throw new SubmitException(SubmitError.UNKNOWN_TREE, "Pool tree \"" + tree + "\" does not exist; trees: "
                        + trees.keySet(), Map.of("pool_tree", tree));
            }
            TreePools.Placement placement = pools.resolve(spec.optionsFor(tree).pool(), user);
            List<String> path = new ArrayList<>();
            if (pools.contains(placement.pool())) {
                path.addAll(pools.pathToRoot(placement.pool()));
            } else {
                path.add(placement.pool());
                path.addAll(pools.pathToRoot(placement.ephemeralParent()));
            }
            paths.put(tree, path);
        }
        return paths;
    }
}
