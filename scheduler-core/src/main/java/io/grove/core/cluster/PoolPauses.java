package io.grove.core.cluster;

import io.grove.core.operation.Operation;
import io.grove.core.operation.OperationRegistry;
import io.grove.core.pool.PoolPause;
import java.util.Collections;
import java.util.Map;

/**
 * The paused pools of a cluster's trees ({@link Cluster#pause}): kept in each tree's state, and
 * applied to its scheduling index at once.
 */
final class PoolPauses {

    private final Map<String, TreeState> trees;
    private final OperationRegistry registry;

    PoolPauses(Map<String, TreeState> trees, OperationRegistry registry) {
        this.trees = trees;
        this.registry = registry;
    }

    void pause(PoolPause pause) {
        TreeState state = trees.get(pause.tree());
        if (state == null || registry.pools(pause.tree()) == null || !registry.pools(pause.tree()).contains(pause.pool())) {
            throw new IllegalArgumentException("tree " + pause.tree() + " has no pool " + pause.pool());
        }
        state.pauses.put(pause.pool(), pause);
        applied(state);
    }

    boolean resume(String tree, String pool) {
        TreeState state = trees.get(tree);
        if (state == null || state.pauses.remove(pool) == null) {
            return false;
        }
        applied(state);
        return true;
    }

    private static void applied(TreeState state) {
        if (state.index != null) {
            state.index.applyPauses(state.pauses);
        }
    }

    Map<String, PoolPause> of(String tree) {
        TreeState state = trees.get(tree);
        return state == null ? Map.of() : Collections.unmodifiableMap(state.pauses);
    }

    PoolPause holding(String tree, Operation operation) {
        TreeState state = trees.get(tree);
        String pool = operation.poolByTree().get(tree);
        if (state == null || state.pauses.isEmpty() || pool == null || registry.pools(tree) == null
                || !registry.pools(tree).contains(pool)) {
            return null;
        }
        for (String at : registry.pools(tree).pathToRoot(pool)) {
            PoolPause pause = state.pauses.get(at);
            if (pause != null) {
                return pause;
            }
        }
        return null;
    }
}
