package io.grove.core.operation;

import io.grove.core.pool.PoolTree;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.pool.PoolsConfig;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The check of a reload against what unfinished operations use. */
final class PoolsInUse {

    private PoolsInUse() {
    }

    /**
     * Refuses a configuration that removes a pool or tree an unfinished operation uses (itself or
     * below it); ephemeral pools stay whatever the configuration says.
     *
     * @throws ReloadRefusedException naming the pools or trees in use and (up to five of) their operations
     */
    static void check(PoolsConfig config, Collection<Operation> operations, Map<String, TreePools> trees) {
        Map<String, List<String>> inUse = new TreeMap<>();
        for (Operation operation : operations) {
            if (operation.state().isFinished()) {
                continue;
            }
            for (Map.Entry<String, String> placed : operation.poolByTree().entrySet()) {
                String tree = placed.getKey();
                PoolTreeConfig next = config.trees().get(tree);
                if (next == null) {
                    inUse.computeIfAbsent("tree \"" + tree + "\"", k -> new ArrayList<>()).add(operation.id());
                    continue;
                }
                PoolTree shape = PoolTree.of(next);
                TreePools current = trees.get(tree);
                for (String pool : current.pathToRoot(placed.getValue())) {
                    if (!PoolTreeConfig.ROOT.equals(pool) && !current.isEphemeral(pool) && !shape.contains(pool)) {
                        inUse.computeIfAbsent("pool \"" + pool + "\" in tree \"" + tree + "\"", k -> new ArrayList<>())
                                .add(operation.id());
                    }
                }
            }
        }
        if (!inUse.isEmpty()) {
            StringBuilder message = new StringBuilder("the new configuration removes what unfinished operations use:");
            inUse.forEach((what, ops) -> message.append(' ').append(what).append(" holds ")
                    .append(ops.size() <= 5 ? ops : ops.subList(0, 5) + " and " + (ops.size() - 5) + " more").append(';'));
            throw new ReloadRefusedException(message.substring(0, message.length() - 1));
        }
    }
}
