package io.grove.core.cluster;

import io.grove.core.node.Node;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which tree's {@link TopologyIndex} counts each node, so that a node that moves to another tree
 * (its tags changed, the filters were reloaded) leaves the old one's domains as it enters the new
 * one's. Trees without levels count nothing, at no cost.
 */
final class TopologyCounts {

    private final Map<String, TreeState> trees;
    /** Node id to the tree whose index counts it. */
    private final Map<String, String> countedIn = new HashMap<>();
    /** Whether some tree knows levels: without one, a heartbeat's count costs one field read. */
    private boolean active;

    TopologyCounts(Map<String, TreeState> trees) {
        this.trees = trees;
    }

    /** Notes whether some tree knows levels (after the trees were made or reloaded). */
    void refresh() {
        active = false;
        for (TreeState tree : trees.values()) {
            active |= !tree.topology.empty();
        }
    }

    /** Counts {@code node} as it is now. */
    void counted(Node node) {
        if (node == null || !active && countedIn.isEmpty()) {
            return;
        }
        String before = countedIn.get(node.id());
        if (before != null && !before.equals(node.tree())) {
            forget(node.id());
        }
        TreeState tree = node.tree() == null ? null : trees.get(node.tree());
        if (tree != null && !tree.topology.empty()) {
            tree.topology.update(node);
            countedIn.put(node.id(), node.tree());
        }
    }

    /** Stops counting a node the cluster forgot. */
    void forget(String nodeId) {
        String tree = countedIn.remove(nodeId);
        if (tree != null && trees.containsKey(tree)) {
            trees.get(tree).topology.remove(nodeId);
        }
    }

    /** A tree's levels changed: its index starts empty; the reload counts its nodes again at once. */
    void relevel(String tree, List<String> levels) {
        trees.get(tree).topology = new TopologyIndex(levels);
        countedIn.values().removeIf(tree::equals);
    }
}
