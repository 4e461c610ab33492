package io.grove.core.pool;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The shape of a validated pool tree: every pool by name with its parent and path. Pool names are
 * unique within a tree, so a name identifies a pool.
 */
public final class PoolTree {

    /** One pool with its place in the tree. */
    public record Node(PoolConfig config, String parent, String path, int depth) {
    }

    private final PoolTreeConfig config;
    private final Map<String, Node> nodes;

    private PoolTree(PoolTreeConfig config, Map<String, Node> nodes) {
        this.config = config;
        this.nodes = Collections.unmodifiableMap(nodes);
    }

    /**
     * Builds the tree's index. The configuration must have passed {@link PoolTreeValidator}.
     *
     * @throws IllegalArgumentException on a duplicate pool name
     */
    public static PoolTree of(PoolTreeConfig config) {
        Map<String, Node> nodes = new LinkedHashMap<>();
        for (PoolConfig pool : config.pools()) {
            index(pool, PoolTreeConfig.ROOT, config.name(), 1, nodes);
        }
        return new PoolTree(config, nodes);
    }

    private static void index(PoolConfig pool, String parent, String parentPath, int depth, Map<String, Node> nodes) {
        String path = parentPath + "/" + pool.name();
        if (nodes.putIfAbsent(pool.name(), new Node(pool, parent, path, depth)) != null) {
            throw new IllegalArgumentException("duplicate pool name '" + pool.name() + "' at " + path);
        }
        for (PoolConfig child : pool.children()) {
            index(child, pool.name(), path, depth + 1, nodes);
        }
    }

    public PoolTreeConfig config() {
        return config;
    }

    public String name() {
        return config.name();
    }

    public Optional<Node> pool(String name) {
        return Optional.ofNullable(nodes.get(name));
    }

    public boolean contains(String name) {
        return PoolTreeConfig.ROOT.equals(name) || nodes.containsKey(name);
    }

    /** All pools in depth-first order. */
    public List<Node> pools() {
        return new ArrayList<>(nodes.values());
    }

    /** The pool and its ancestors up to (not including) the root, nearest first. */
    public List<Node> pathToRoot(String name) {
        List<Node> path = new ArrayList<>();
        Node node = nodes.get(name);
        while (node != null) {
            path.add(node);
            node = nodes.get(node.parent());
        }
        return path;
    }
}
