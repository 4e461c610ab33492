package io.grove.core.schedule;

import io.grove.core.node.Node;
import io.grove.core.operation.Job;
import io.grove.core.operation.Operation;
import io.grove.core.preempt.StarvationStatus;
import io.grove.core.resource.ResourceType;
import io.grove.core.resource.Resources;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Room for a starving gang by preemption (docs/scheduling.md#preemption-for-gangs): the domain of its
 * required level (or, without one, the nodes with the most to gain) where its ranks fit once the
 * jobs the preemption rules let it take are gone, choosing the domain and the victims that lose the
 * least work. Another gang is a victim whole — every running rank, wherever it runs, its lost work
 * summed — or not at all; once the ranks fit, each victim not needed after all is given back, the
 * costliest first, so no more is taken than the gang needs. Pure: reads the index and the nodes.
 */
final class GangPreemption {

    /** Without a required level, the nodes looked at: those with the most free plus takeable, at most this many. */
    static final int MAX_NODES_ANYWHERE = 64;

    /**
     * What a gang's preemption takes.
     *
     * @param nodeOfRank each rank's node once the victims are gone
     * @param domain the domain of the required level, or {@code null}
     * @param victims the jobs to take, each gang's ranks together
     * @param cost the work they lose (dominant share × seconds since each one's last checkpoint or start)
     * @param stage the stage whose rules chose them (its reason goes to the victims)
     */
    record Choice(Map<Integer, String> nodeOfRank, String domain, List<Job> victims, double cost, PreemptionStage stage) {
    }

    /** Victims taken together: one job, or every running rank of another gang; what they free per node and lose. */
    private record Unit(List<Job> jobs, Map<String, double[]> freed, double cost) {
    }

    private GangPreemption() {
    }

    /**
     * The cheapest way to make room for the gang at {@code at}, or {@code null} when it does not
     * starve or no domain can be freed.
     *
     * @param nodes the nodes the gang may go to, each with what is free on it for the gang
     * @param statuses the jobs' preemption statuses in this index at {@code now}, shared by the gangs
     *     planned in one round (they do not change within it)
     */
    static Choice choose(SchedulingIndex index, int at, Map<Node, double[]> nodes, List<GangPlanner.Rank> ranks,
            GangPlanner.Constraint constraint, Preemptibility statuses, Instant now) {
        StarvationStatus starving = index.priority[at];
        if (starving.compareTo(StarvationStatus.STARVING) < 0) {
            return null;
        }
        PreemptionStage stage = PreemptionStage.serving(starving);
        Map<String, Unit> units = units(index, at, nodes, stage, statuses, now);
        if (units.isEmpty()) {
            return null;
        }
        ResourceType main = index.config.mainResource();
        Map<String, List<Node>> domains = new TreeMap<>();
        if (constraint.level() != null && constraint.required()) {
            for (Node node : nodes.keySet()) {
                String domain = node.topology().domain(constraint.level());
                if (domain != null) {
                    domains.computeIfAbsent(domain, d -> new ArrayList<>()).add(node);
                }
            }
        } else {
            domains.put("", mostToGain(nodes, units, main));
        }
        Choice best = null;
        for (Map.Entry<String, List<Node>> domain : domains.entrySet()) {
            Choice choice = free(domain.getValue(), nodes, units, ranks, main);
            if (choice != null && (best == null || choice.cost() < best.cost() - 1e-9)) {
                best = new Choice(choice.nodeOfRank(), domain.getKey().isEmpty() ? null : domain.getKey(),
                        choice.victims(), choice.cost(), stage);
            }
        }
        return best;
    }

    /** Every job the stage may take for the gang, grouped into units: a job alone, or another gang's ranks together. */
    private static Map<String, Unit> units(SchedulingIndex index, int at, Map<Node, double[]> nodes, PreemptionStage stage,
            Preemptibility statuses, Instant now) {
        Set<Integer> path = new HashSet<>();
        for (int e = at; e >= 0; e = index.parent[e]) {
            path.add(e);
        }
        String target = index.operations[at].id();
        Map<String, PreemptionCandidate> allowed = new HashMap<>();
        for (Node node : nodes.keySet()) {
            for (Job job : node.jobs()) {
                PreemptionCandidate candidate = VictimRules.candidate(index, statuses, stage, index.config.preemption(), true,
                        job, now);
                if (candidate != null && candidate.operation() != at && VictimRules.usableFor(index, candidate, path, target)) {
                    allowed.put(job.id(), candidate);
                }
            }
        }
        Map<String, Unit> units = new LinkedHashMap<>();
        for (PreemptionCandidate candidate : allowed.values()) {
            Job job = candidate.job();
            Operation operation = candidate.operation() < 0 ? null : index.operations[candidate.operation()];
            if (operation == null || !operation.spec().gang()) {
                units.put(job.id(), new Unit(List.of(job), Map.of(job.nodeId(), candidate.resources()), candidate.waste()));
                continue;
            }
            if (units.containsKey(operation.id())) {
                continue;
            }
            List<Job> ranks = new ArrayList<>();
            Map<String, double[]> freed = new HashMap<>();
            double cost = 0;
            boolean whole = true;
            for (Job rank : operation.runningJobsArray()) {
                PreemptionCandidate taken = allowed.get(rank.id());
                if (taken == null) {
                    whole = false;   // a rank the rules keep keeps the whole gang
                    break;
                }
                ranks.add(rank);
                cost = taken.waste();   // a rank's waste is its whole gang's (VictimChoice.gangWaste)
                double[] on = freed.computeIfAbsent(rank.nodeId(), n -> new double[SchedulingIndex.N]);
                for (int r = 0; r < on.length; r++) {
                    on[r] += taken.resources()[r];
                }
            }
            if (whole) {
                units.put(operation.id(), new Unit(ranks, freed, cost));
            }
        }
        return units;
    }

    /** The nodes with the most free plus takeable of the main resource, at most {@link #MAX_NODES_ANYWHERE}. */
    private static List<Node> mostToGain(Map<Node, double[]> nodes, Map<String, Unit> units, ResourceType main) {
        Map<String, Double> gain = new HashMap<>();
        for (Unit unit : units.values()) {
            unit.freed().forEach((node, freed) -> gain.merge(node, freed[main.ordinal()], Double::sum));
        }
        List<Node> sorted = new ArrayList<>(nodes.keySet());
        sorted.sort(Comparator.comparingDouble((Node n) -> -(nodes.get(n)[main.ordinal()] + gain.getOrDefault(n.id(), 0.0)))
                .thenComparing(Node::id));
        return sorted.subList(0, Math.min(MAX_NODES_ANYWHERE, sorted.size()));
    }

    /**
     * The cheapest victims within {@code domain} that let every rank fit there: units taken best
     * value first (lost work per unit of the main resource freed in the domain) until the ranks
     * pack, then the costliest given back while they still pack; {@code null} if they never pack.
     */
    private static Choice free(List<Node> domain, Map<Node, double[]> nodes, Map<String, Unit> units,
            List<GangPlanner.Rank> ranks, ResourceType main) {
        Map<String, double[]> free = new LinkedHashMap<>();
        for (Node node : domain) {
            free.put(node.id(), nodes.get(node).clone());
        }
        List<Unit> inside = new ArrayList<>();
        Map<Unit, Double> value = new HashMap<>();
        for (Unit unit : units.values()) {
            double freed = 0;
            for (Map.Entry<String, double[]> on : unit.freed().entrySet()) {
                freed += free.containsKey(on.getKey()) ? on.getValue()[main.ordinal()] : 0;
            }
            if (freed > 0) {
                inside.add(unit);
                value.put(unit, unit.cost() / freed);
            }
        }
        inside.sort(Comparator.comparingDouble((Unit u) -> value.get(u)).thenComparingDouble(Unit::cost));
        List<Unit> taken = new ArrayList<>();
        Map<Integer, String> placed = GangPlanner.pack(ranks, free, main);
        for (int i = 0; placed == null && i < inside.size(); i++) {
            move(inside.get(i), free, 1);
            taken.add(inside.get(i));
            placed = GangPlanner.pack(ranks, free, main);
        }
        if (placed == null) {
            return null;
        }
        List<Unit> costliest = new ArrayList<>(taken);
        costliest.sort(Comparator.comparingDouble(Unit::cost).reversed());
        for (Unit unit : costliest) {
            move(unit, free, -1);
            Map<Integer, String> without = GangPlanner.pack(ranks, free, main);
            if (without != null) {
                taken.remove(unit);
                placed = without;
            } else {
                move(unit, free, 1);
            }
        }
        List<Job> victims = new ArrayList<>();
        double cost = 0;
        for (Unit unit : taken) {
            victims.addAll(unit.jobs());
            cost += unit.cost();
        }
        return new Choice(placed, null, victims, cost, null);
    }

    private static void move(Unit unit, Map<String, double[]> free, int sign) {
        unit.freed().forEach((node, freed) -> {
            double[] on = free.get(node);
            if (on != null) {
                for (int r = 0; r < on.length; r++) {
                    on[r] += sign * freed[r];
                }
            }
        });
    }
}
