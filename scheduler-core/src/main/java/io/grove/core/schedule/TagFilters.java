package io.grove.core.schedule;

import io.grove.core.node.NodeFilter;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The elements of a scheduling index with a {@code scheduling_tag_filter}: a pool's, or an
 * operation's for the index's tree. A node whose tags a filter does not match never gets a job
 * from below that element. Most trees have none, and then a decision pays nothing.
 */
final class TagFilters {

    private final int[] elements;
    private final NodeFilter[] filters;

    private TagFilters(int[] elements, NodeFilter[] filters) {
        this.elements = elements;
        this.filters = filters;
    }

    /** Collects filters element by element. */
    static final class Builder {
        private final List<Integer> elements = new ArrayList<>();
        private final List<NodeFilter> filters = new ArrayList<>();

        void add(int at, String filter) {
            if (filter != null && !filter.isEmpty()) {
                elements.add(at);
                filters.add(NodeFilter.parse(filter));
            }
        }

        TagFilters build() {
            return new TagFilters(elements.stream().mapToInt(Integer::intValue).toArray(),
                    filters.toArray(new NodeFilter[0]));
        }
    }

    boolean isEmpty() {
        return elements.length == 0;
    }

    /** The elements whose filter does not match a node with these tags. */
    List<Integer> unmatched(Set<String> tags) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < elements.length; i++) {
            if (!filters[i].matches(tags)) {
                out.add(elements[i]);
            }
        }
        return out;
    }

    /** Whether a node with these tags may run jobs of element {@code at}: no filter on it or above it fails. */
    boolean allow(int at, int[] parent, Set<String> tags) {
        for (int i = 0; i < elements.length; i++) {
            if (!filters[i].matches(tags)) {
                for (int e = at; e >= 0; e = parent[e]) {
                    if (e == elements[i]) {
                        return false;
                    }
                }
            }
        }
        return true;
    }
}
