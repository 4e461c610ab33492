package io.grove.core.cluster;

import io.grove.core.node.Node;
import io.grove.core.operation.Operation;
import io.grove.core.operation.OperationsView;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Work that a fair-share publication made schedulable, and the nodes to ask for a heartbeat now so
 * that it starts without waiting for their next one. Counts per tree how many jobs the newly
 * schedulable operations have waiting; each count is spent once.
 */
final class NewWork {

    private NewWork() {
    }

    /** Counts the jobs waiting in operations schedulable in {@code tree} now that were not in {@code before}. */
    static void published(TreeState tree, Set<String> before, OperationsView registry) {
        for (String id : tree.index.schedulableOperations()) {
            Operation operation = before.contains(id) ? null : registry.operation(id);
            if (operation != null) {
                tree.newWork = (int) Math.min(Integer.MAX_VALUE, (long) tree.newWork + operation.pendingJobCount());
            }
        }
    }

    /** See {@link Cluster#nodesForNewWork}. */
    static List<String> nodes(Map<String, TreeState> trees, Collection<Node> nodes, Instant now, Duration quiet,
            int limit) {
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, TreeState> entry : trees.entrySet()) {
            TreeState state = entry.getValue();
            if (state.newWork == 0 || state.index == null) {
                continue;
            }
            // as many nodes as the new work has jobs waiting, up to the limit
            int wanted = out.size() + Math.min(state.newWork, limit - out.size());
            state.newWork = 0;
            for (Node node : nodes) {
                if (out.size() >= wanted) {
                    break;
                }
                if (entry.getKey().equals(node.tree()) && node.state() == Node.State.ONLINE
                        && node.schedulable()
                        && Duration.between(node.lastHeartbeat(), now).compareTo(quiet) >= 0
                        && state.index.mayStartIn(node.limits().minusClamped(node.usage()))) {
                    out.add(node.id());
                }
            }
        }
        return out;
    }
}
