package io.grove.core.cluster;

import io.grove.core.node.Node;
import io.grove.core.resource.ResourceType;
import io.grove.core.resource.Resources;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One tree's topology: for each level it declares ({@code topology_levels}), each domain's nodes
 * and the resources free on them, kept up to date as nodes report, take and end jobs (each change
 * costs one node's levels, never a pass over the nodes). A node counts in a domain of a level when
 * it gives that level; its free resources count while it is online and may start jobs.
 */
public final class TopologyIndex {

    private static final int N = ResourceType.COUNT;

    /** One domain as readers see it: its nodes (by id, sorted) and what is free on them. */
    public record Domain(String level, String name, List<String> nodes, Resources free) {
    }

    /** A domain's running totals. */
    private static final class Counts {
        final TreeSet<String> nodes = new TreeSet<>();
        final double[] free = new double[N];
    }

    /** What a node adds: its domain per level ({@code null}: none) and its free resources. */
    private record Counted(String[] domains, double[] free) {
    }

    private final List<String> levels;
    private final List<Map<String, Counts>> byLevel = new ArrayList<>();
    private final Map<String, Counted> counted = new HashMap<>();

    TopologyIndex(List<String> levels) {
        this.levels = List.copyOf(levels);
        for (int i = 0; i < levels.size(); i++) {
            byLevel.add(new LinkedHashMap<>());
        }
    }

    /** The levels, widest first. */
    public List<String> levels() {
        return levels;
    }

    /** Whether the tree knows no level (then nothing is kept). */
    boolean empty() {
        return levels.isEmpty();
    }

    /** Counts {@code node} as it is now, in place of what it was (a node of this tree). */
    void update(Node node) {
        if (levels.isEmpty()) {
            return;
        }
        String[] domains = new String[levels.size()];
        for (int i = 0; i < domains.length; i++) {
            domains[i] = node.topology().domain(levels.get(i));
        }
        double[] free = new double[N];
        if (node.state() == Node.State.ONLINE && node.schedulable()) {
            double[] limits = node.limits().toArray();
            double[] used = node.usage().toArray();
            for (int r = 0; r < N; r++) {
                free[r] = Math.max(0, limits[r] - used[r]);
            }
        }
        Counted before = counted.get(node.id());
        if (before != null && Arrays.equals(before.domains(), domains) && Arrays.equals(before.free(), free)) {
            return;
        }
        remove(node.id());
        counted.put(node.id(), new Counted(domains, free));
        for (int i = 0; i < domains.length; i++) {
            if (domains[i] != null) {
                Counts counts = byLevel.get(i).computeIfAbsent(domains[i], d -> new Counts());
                counts.nodes.add(node.id());
                add(counts.free, free, 1);
            }
        }
    }

    /** Stops counting a node (it left the tree, or was forgotten). */
    void remove(String nodeId) {
        Counted before = counted.remove(nodeId);
        if (before == null) {
            return;
        }
        for (int i = 0; i < before.domains().length; i++) {
            String domain = before.domains()[i];
            if (domain == null) {
                continue;
            }
            Counts counts = byLevel.get(i).get(domain);
            counts.nodes.remove(nodeId);
            add(counts.free, before.free(), -1);
            if (counts.nodes.isEmpty()) {
                byLevel.get(i).remove(domain);
            }
        }
    }

    private static void add(double[] into, double[] values, int sign) {
        for (int r = 0; r < N; r++) {
            into[r] += sign * values[r];
            if (Math.abs(into[r]) < 1e-9) {
                into[r] = 0;
            }
        }
    }

    /** The domains of {@code level}, by name; empty for a level the tree does not know. */
    public List<Domain> domains(String level) {
        int at = levels.indexOf(level);
        if (at < 0) {
            return List.of();
        }
        List<Domain> out = new ArrayList<>();
        new TreeMap<>(byLevel.get(at)).forEach((name, counts) -> out.add(new Domain(level, name,
                List.copyOf(counts.nodes), Resources.of(counts.free.clone()))));
        return Collections.unmodifiableList(out);
    }

    /**
     * The domain of {@code level} with the most of {@code resource} free (ties: the first by name),
     * or {@code null} when the level has none: the largest gang of that level that could start now.
     */
    public Domain largestFree(String level, ResourceType resource) {
        Domain largest = null;
        for (Domain domain : domains(level)) {
            if (largest == null || domain.free().get(resource) > largest.free().get(resource)) {
                largest = domain;
            }
        }
        return largest;
    }

    /** How many nodes of the tree are counted (given any level or none). */
    public int nodes() {
        return counted.size();
    }
}
