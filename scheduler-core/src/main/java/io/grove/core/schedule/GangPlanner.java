package io.grove.core.schedule;

import io.grove.core.node.NodeTopology;
import io.grove.core.resource.ResourceText;
import io.grove.core.resource.ResourceType;
import io.grove.core.resource.Resources;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * Chooses a node for every rank of a gang at once, from the nodes' free resources (what other
 * plans hold already taken out): all of the ranks now, or none. With a required level every rank
 * sits inside one domain of that level; with a preferred one, inside one domain when some domain
 * fits them, else anywhere. Among the domains that fit, the one with the least of the main
 * resource free (best fit), so that the largest free domains stay whole for the gangs that need
 * them; ties go to the first domain by name. Within a domain ranks are packed largest first, each
 * on the fitting node with the least free (best fit again). Pure: nodes in, a plan or why not out.
 */
public final class GangPlanner {

    private static final int N = ResourceType.COUNT;

    /** A rank to place: its index in the gang and what it orders. */
    public record Rank(int index, Resources resources) {
    }

    /** A node a rank may go to: where it sits and what is free on it for this gang. */
    public record Candidate(String nodeId, NodeTopology topology, Resources free) {
    }

    /** How the gang is held to the topology: a level it must stay inside, or should. */
    public record Constraint(String level, boolean required) {

        /** No constraint: anywhere in the tree. */
        public static final Constraint NONE = new Constraint(null, false);
    }

    /** The outcome of planning. */
    public sealed interface Outcome {
    }

    /**
     * Every rank placed.
     *
     * @param nodeOfRank each rank's node, by rank index
     * @param domain the domain of the constraint's level it sits in, or {@code null} when it spans
     */
    public record Planned(Map<Integer, String> nodeOfRank, String domain) implements Outcome {
    }

    /**
     * Not now, and why, with the numbers: how many of the ranks fit in each domain that came closest.
     * The words are made when asked ({@link #why}): gangs are planned far more often than explained
     * (every publication, every forecast's step), and the words cost more than the planning.
     *
     * @param text makes why, from what it captured when planned (nothing it captures changes after)
     * @param fitting per domain of the constraint's level (or {@code ""} for the whole tree), how
     *     many ranks would fit there now
     */
    public record Waiting(Supplier<String> text, Map<String, Integer> fitting) implements Outcome {

        /** Why the gang waits, in words. */
        public String why() {
            return text.get();
        }
    }

    private GangPlanner() {
    }

    /**
     * Plans {@code ranks} on {@code nodes}.
     *
     * @param main the resource best fit is measured in (the tree's main resource)
     */
    public static Outcome plan(List<Rank> ranks, List<Candidate> nodes, Constraint constraint, ResourceType main) {
        if (ranks.isEmpty()) {
            return new Planned(Map.of(), null);
        }
        if (constraint.level() == null) {
            Map<Integer, String> placed = pack(ranks, nodes, main);
            if (placed != null) {
                return new Planned(placed, null);
            }
            int fit = fitCount(ranks, nodes, main);
            return new Waiting(() -> "needs " + describe(ranks) + " at once; " + fit + " fit on the tree's nodes now",
                    Map.of("", fit));
        }
        Map<String, List<Candidate>> domains = new TreeMap<>();
        for (Candidate node : nodes) {
            String domain = node.topology().domain(constraint.level());
            if (domain != null) {
                domains.computeIfAbsent(domain, d -> new ArrayList<>()).add(node);
            }
        }
        String best = null;
        Map<Integer, String> bestPlaced = null;
        double bestFree = Double.POSITIVE_INFINITY;
        Map<String, Integer> fitting = new LinkedHashMap<>();
        for (Map.Entry<String, List<Candidate>> domain : domains.entrySet()) {
            Map<Integer, String> placed = pack(ranks, domain.getValue(), main);
            if (placed == null) {
                fitting.put(domain.getKey(), fitCount(ranks, domain.getValue(), main));
                continue;
            }
            double free = 0;
            for (Candidate node : domain.getValue()) {
                free += node.free().get(main);
            }
            if (free < bestFree) {
                best = domain.getKey();
                bestPlaced = placed;
                bestFree = free;
            }
        }
        if (bestPlaced != null) {
            return new Planned(bestPlaced, best);
        }
        if (!constraint.required()) {
            Map<Integer, String> anywhere = pack(ranks, nodes, main);
            if (anywhere != null) {
                return new Planned(anywhere, null);
            }
        }
        boolean none = domains.isEmpty();
        return new Waiting(() -> "needs " + describe(ranks) + " in one " + constraint.level() + (none
                ? "; no node gives a " + constraint.level() : "; " + closest(fitting, constraint.level())), fitting);
    }

    /** Every rank on some node, largest first, each on the fitting node with the least free; {@code null} if one fits nowhere. */
    private static Map<Integer, String> pack(List<Rank> ranks, List<Candidate> nodes, ResourceType main) {
        Map<Integer, String> placed = new TreeMap<>();
        return greedy(ranks, nodes, main, placed) == ranks.size() ? placed : null;
    }

    /**
     * Every rank on the nodes of {@code free} (what is free on each, by node id), anywhere among
     * them, by the same packing; {@code null} if one fits nowhere.
     */
    static Map<Integer, String> pack(List<Rank> ranks, Map<String, double[]> free, ResourceType main) {
        List<Candidate> candidates = new ArrayList<>();
        free.forEach((node, room) -> candidates.add(new Candidate(node, null, Resources.of(room))));
        return pack(ranks, candidates, main);
    }

    /** How many of the ranks fit on {@code nodes} together (the greedy pass of {@link #pack}, misfits left out). */
    private static int fitCount(List<Rank> ranks, List<Candidate> nodes, ResourceType main) {
        return greedy(ranks, nodes, main, new TreeMap<>());
    }

    /**
     * One pass, largest rank first, each on the fitting node with the least of the main resource
     * free; a rank that fits nowhere is left out. Fills {@code placed} and returns how many fit.
     */
    private static int greedy(List<Rank> ranks, List<Candidate> nodes, ResourceType main, Map<Integer, String> placed) {
        double[][] free = new double[nodes.size()][];
        for (int i = 0; i < free.length; i++) {
            free[i] = nodes.get(i).free().toArray();
        }
        List<Rank> order = new ArrayList<>(ranks);
        order.sort(Comparator.comparingDouble((Rank r) -> -r.resources().get(main)).thenComparingInt(Rank::index));
        for (Rank rank : order) {
            double[] wants = rank.resources().toArray();
            int chosen = -1;
            for (int i = 0; i < free.length; i++) {
                if (Fits.fits(wants, free[i]) && (chosen < 0 || free[i][main.ordinal()] < free[chosen][main.ordinal()])) {
                    chosen = i;
                }
            }
            if (chosen >= 0) {
                for (int r = 0; r < N; r++) {
                    free[chosen][r] -= wants[r];
                }
                placed.put(rank.index(), nodes.get(chosen).nodeId());
            }
        }
        return placed.size();
    }

    /** {@code 4 ranks (8 gpu, 1 cpu each)}, or without the amounts when the ranks differ. */
    static String describe(List<Rank> ranks) {
        Resources first = ranks.get(0).resources();
        boolean same = ranks.stream().allMatch(rank -> rank.resources().equals(first));
        return ranks.size() + " rank" + (ranks.size() == 1 ? "" : "s")
                + (same ? " (" + ResourceText.describe(first, first.with(ResourceType.USER_SLOTS, 0)) + " each)" : "");
    }

    /** The domains that came closest, most fitting first: {@code rack r07 has room for 3, rack r09 has room for 2}. */
    private static String closest(Map<String, Integer> fitting, String level) {
        List<Map.Entry<String, Integer>> sorted = new ArrayList<>(fitting.entrySet());
        sorted.sort(Map.Entry.<String, Integer>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
        List<String> parts = new ArrayList<>();
        for (Map.Entry<String, Integer> domain : sorted.subList(0, Math.min(3, sorted.size()))) {
            parts.add(level + " " + domain.getKey() + " has room for " + domain.getValue());
        }
        return String.join(", ", parts);
    }
}
