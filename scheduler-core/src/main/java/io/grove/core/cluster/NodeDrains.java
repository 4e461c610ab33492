package io.grove.core.cluster;

import io.grove.core.node.Node;
import io.grove.core.node.NodeDrain;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * The nodes drained by administrators ({@link NodeDrain}): kept by node id whether or not the
 * node is connected (a restart revives them before the nodes reconnect; a node forgotten and back
 * is still drained), and applied to a known node at once, so that its next heartbeat starts
 * nothing there.
 */
public final class NodeDrains {

    private final Cluster cluster;
    private final Map<String, NodeDrain> drains = new TreeMap<>();

    NodeDrains(Cluster cluster) {
        this.cluster = cluster;
    }

    /** Drains a node (again: the new drain replaces the old). */
    public void drain(NodeDrain drain) {
        drains.put(drain.node(), drain);
        applied(drain.node());
    }

    /** Undrains a node; whether it was drained. */
    public boolean undrain(String node) {
        if (drains.remove(node) == null) {
            return false;
        }
        applied(node);
        return true;
    }

    /** The node's drain, or {@code null}. */
    public NodeDrain of(String node) {
        return drains.get(node);
    }

    /** Every drain, by node id. */
    public Map<String, NodeDrain> all() {
        return Collections.unmodifiableMap(drains);
    }

    /** A node the cluster has just come to know takes its drain. */
    void known(Node node) {
        node.drain(drains.get(node.id()));
    }

    private void applied(String id) {
        Node node = cluster.node(id);
        if (node == null) {
            return;
        }
        node.drain(drains.get(id));
        cluster.counted(node);
        TreeState tree = node.tree() == null ? null : cluster.treeState(node.tree());
        if (tree != null) {
            tree.gangs.dirty = true;
        }
    }
}
