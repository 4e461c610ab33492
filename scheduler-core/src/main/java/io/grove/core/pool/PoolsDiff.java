package io.grove.core.pool;

import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a new pools configuration changes: trees and pools added and removed, pools moved to
 * another parent, and the attributes whose values differ (by their record names, e.g.
 * {@code weight}, {@code strongGuaranteeResources}).
 *
 * @param changes in tree order, then pool order
 */
public record PoolsDiff(List<Change> changes) {

    /** What kind of change. */
    public enum Kind { TREE_ADDED, TREE_REMOVED, TREE_CHANGED, POOL_ADDED, POOL_REMOVED, POOL_CHANGED }

    /**
     * One change.
     *
     * @param pool the pool, or {@code null} for a change of the tree itself
     * @param attributes the attributes that differ (for changes), with {@code parent} when a pool moved
     */
    public record Change(String tree, String pool, Kind kind, List<String> attributes) {
    }

    public boolean isEmpty() {
        return changes.isEmpty();
    }

    public static PoolsDiff of(PoolsConfig before, PoolsConfig after) {
        List<Change> changes = new ArrayList<>();
        for (PoolTreeConfig tree : before.trees().values()) {
            if (!after.trees().containsKey(tree.name())) {
                changes.add(new Change(tree.name(), null, Kind.TREE_REMOVED, List.of()));
            }
        }
        for (PoolTreeConfig next : after.trees().values()) {
            PoolTreeConfig previous = before.trees().get(next.name());
            if (previous == null) {
                changes.add(new Change(next.name(), null, Kind.TREE_ADDED, List.of()));
                continue;
            }
            List<String> treeAttributes = differences(previous.withPools(List.of()), next.withPools(List.of()), "pools");
            if (!treeAttributes.isEmpty()) {
                changes.add(new Change(next.name(), null, Kind.TREE_CHANGED, treeAttributes));
            }
            Map<String, PoolTree.Node> old = byName(PoolTree.of(previous));
            Map<String, PoolTree.Node> now = byName(PoolTree.of(next));
            for (String name : old.keySet()) {
                if (!now.containsKey(name)) {
                    changes.add(new Change(next.name(), name, Kind.POOL_REMOVED, List.of()));
                }
            }
            for (PoolTree.Node node : now.values()) {
                PoolTree.Node was = old.get(node.config().name());
                if (was == null) {
                    changes.add(new Change(next.name(), node.config().name(), Kind.POOL_ADDED, List.of()));
                    continue;
                }
                List<String> attributes = new ArrayList<>();
                if (!Objects.equals(was.parent(), node.parent())) {
                    attributes.add("parent");
                }
                attributes.addAll(differences(was.config(), node.config(), "children"));
                if (!attributes.isEmpty()) {
                    changes.add(new Change(next.name(), node.config().name(), Kind.POOL_CHANGED, attributes));
                }
            }
        }
        return new PoolsDiff(changes);
    }

    private static Map<String, PoolTree.Node> byName(PoolTree tree) {
        Map<String, PoolTree.Node> map = new LinkedHashMap<>();
        tree.pools().forEach(node -> map.put(node.config().name(), node));
        return map;
    }

    /** The record components whose values differ, except {@code skip}. */
    static List<String> differences(Record a, Record b, String skip) {
        List<String> names = new ArrayList<>();
        for (RecordComponent component : a.getClass().getRecordComponents()) {
            if (component.getName().equals(skip)) {
                continue;
            }
            try {
                Object x = component.getAccessor().invoke(a);
                Object y = component.getAccessor().invoke(b);
                if (!Objects.equals(x, y)) {
                    names.add(component.getName());
                }
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("cannot read " + component.getName(), e);
            }
        }
        return names;
    }
}
