package io.grove.core.schedule;

import io.grove.core.node.Node;
import io.grove.core.operation.Job;
import io.grove.core.operation.Operation;
import io.grove.core.resource.ResourceType;
import io.grove.core.resource.Resources;
import java.time.Duration;
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
 * Where a starving gang's reservation goes and when it is predicted to start
 * (docs/scheduling.md#reservations-with-backfill). A running job is bounded by its time limit: it
 * ends by its start + its limit + the tree's graceful preemption timeout (the time limit stops it
 * gracefully, then kills it); a job without a limit is not bounded. Pure: reads the index and the
 * nodes.
 */
public final class Reservations {

    private Reservations() {
    }

    /** The latest a running job ends: its time limit passed and its grace spent; {@code null} without a limit. */
    static Instant boundEnd(SchedulingIndex index, Job job) {
        Duration limit = job.timeLimit(() -> {
            int at = index.indexOf(job.operationId());
            return at < 0 ? null : index.operations[at];
        });
        Duration grace = index.config.preemption().allocationGracefulPreemptionTimeout();
        Instant end = limit == null ? null : job.startTime().plus(limit).plus(grace);
        if (job.interrupting()) {
            Instant soon = job.stopsBy();
            return end == null || soon.isBefore(end) ? soon : end;
        }
        return end;
    }

    /** Whether a running job may still run at the reservation's start (it has no bound, or the start is unknown). */
    static boolean runsPast(SchedulingIndex index, Job job, GangReservation reservation) {
        Instant end = boundEnd(index, job);
        return end == null || reservation.start() == null || end.isAfter(reservation.start());
    }

    /** Whether a job of task {@code position} of operation {@code at} started now is bounded to end by {@code start}. */
    static boolean endsBy(SchedulingIndex index, int at, int position, Instant now, Instant start) {
        if (start == null) {
            return false;
        }
        Operation operation = index.operations[at];
        Duration limit = operation.hasTimeLimits() ? operation.timeLimit(index.tree, position) : null;
        return limit != null && !now.plus(limit).plus(index.config.preemption().allocationGracefulPreemptionTimeout())
                .isAfter(start);
    }

    /**
     * On a node the reservation holds: what jobs that may run past its start can have there — the
     * node's limits less what the gang needs, the jobs that may run past it, and what gang plans hold.
     */
    static double[] longRoom(SchedulingIndex index, Node node, GangReservation reservation, Resources held,
            Set<String> released) {
        double[] room = node.limits().toArray();
        double[] needs = reservation.needs(node.id()).toArray();
        double[] hold = held.toArray();
        for (int r = 0; r < room.length; r++) {
            room[r] -= needs[r] + hold[r];
        }
        for (Job job : node.jobs()) {
            if (released.contains(job.id())) {
                continue;
            }
            if (runsPast(index, job, reservation)) {
                double[] used = job.resources().toArray();
                for (int r = 0; r < room.length; r++) {
                    room[r] -= used[r];
                }
            }
        }
        return room;
    }

    /** A job's end on a node: when, and what it gives back. */
    private record End(Instant at, String nodeId, double[] resources) {
    }

    /**
     * When the reservation's nodes have what the gang needs, if no other job starts there and the
     * jobs on them end by their bounds; {@code null} when some node never does (a job in the way
     * has no limit) or is gone.
     *
     * @param free what is free on each node now, less what gang plans hold
     */
    public static Instant predict(SchedulingIndex index, GangReservation reservation, Map<String, Node> nodes,
            Map<String, double[]> free, Instant now) {
        Instant latest = now;
        for (Map.Entry<String, Resources> needs : reservation.nodes().entrySet()) {
            Node node = nodes.get(needs.getKey());
            double[] room = free.get(needs.getKey());
            if (node == null || room == null) {
                return null;
            }
            room = room.clone();
            double[] wants = needs.getValue().toArray();
            Instant at = now;
            for (End end : ends(index, List.of(node), now)) {
                if (Fits.fits(wants, room)) {
                    break;
                }
                add(room, end.resources(), 1);
                at = end.at();
            }
            if (!Fits.fits(wants, room)) {
                return null;
            }
            latest = at.isAfter(latest) ? at : latest;
        }
        return latest;
    }

    /**
     * Where the gang at {@code at} is to wait: in each domain of its required level (or, without
     * one, over all the nodes it may go to), the earliest moment its ranks pack if the jobs there end
     * by their bounds and no other starts; the domain whose moment comes first, ties to the one with
     * less free (best fit), then by name. When no domain has such a moment (jobs without limits are
     * in the way), the domain where most of it would fit once every bounded job ended, its nodes
     * those with the least unbounded work. {@code null} when the gang fits in no domain even empty.
     *
     * @param eligible the nodes the gang may go to, each with what is free on it now less what plans hold
     */
    static GangReservation choose(SchedulingIndex index, int at, Map<Node, double[]> eligible,
            List<GangPlanner.Rank> ranks, GangPlanner.Constraint constraint, Instant now) {
        ResourceType main = index.config.mainResource();
        Map<String, List<Node>> domains = new TreeMap<>();
        boolean byDomain = constraint.level() != null && constraint.required();
        for (Node node : eligible.keySet()) {
            String domain = byDomain ? node.topology().domain(constraint.level()) : "";
            if (domain != null) {
                domains.computeIfAbsent(domain, d -> new ArrayList<>()).add(node);
            }
        }
        Map<Integer, String> best = null;
        String bestDomain = null;
        Instant bestStart = null;
        double bestFree = Double.POSITIVE_INFINITY;
        for (Map.Entry<String, List<Node>> domain : domains.entrySet()) {
            List<Node> members = domain.getValue();
            List<End> ends = ends(index, members, now);
            Map<String, double[]> free = new LinkedHashMap<>();
            double mainFree = 0;
            for (Node node : members) {
                free.put(node.id(), eligible.get(node).clone());
                mainFree += eligible.get(node)[main.ordinal()];
            }
            int lo = 0;
            int hi = ends.size();
            if (GangPlanner.pack(ranks, withEnds(free, ends, hi), main) == null) {
                continue;
            }
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (GangPlanner.pack(ranks, withEnds(free, ends, mid), main) != null) {
                    hi = mid;
                } else {
                    lo = mid + 1;
                }
            }
            Instant start = lo == 0 ? now : ends.get(lo - 1).at();
            if (bestStart == null || start.isBefore(bestStart) || start.equals(bestStart) && mainFree < bestFree) {
                best = GangPlanner.pack(ranks, withEnds(free, ends, lo), main);
                bestDomain = domain.getKey();
                bestStart = start;
                bestFree = mainFree;
            }
        }
        if (best == null) {
            return unbounded(index, eligible, domains, ranks, main, constraint, now, at);
        }
        return reservation(index, at, bestDomain.isEmpty() ? null : constraint.level() + " " + bestDomain, ranks, best,
                now, bestStart);
    }

    /** The choice when no domain frees by time limits: the nodes with the least unbounded work, in the domain most of it fits. */
    private static GangReservation unbounded(SchedulingIndex index, Map<Node, double[]> eligible,
            Map<String, List<Node>> domains, List<GangPlanner.Rank> ranks, ResourceType main,
            GangPlanner.Constraint constraint, Instant now, int at) {
        Map<Integer, String> best = null;
        String bestDomain = null;
        double bestStuck = Double.POSITIVE_INFINITY;
        for (Map.Entry<String, List<Node>> domain : domains.entrySet()) {
            Map<String, Double> stuck = new HashMap<>();
            List<Node> members = new ArrayList<>(domain.getValue());
            for (Node node : members) {
                double held = 0;
                for (Job job : node.jobs()) {
                    if (boundEnd(index, job) == null) {
                        held += job.resources().get(main);
                    }
                }
                stuck.put(node.id(), held);
            }
            members.sort(Comparator.comparingDouble((Node n) -> stuck.get(n.id())).thenComparing(Node::id));
            Map<String, double[]> empty = new LinkedHashMap<>();
            for (Node node : members) {
                empty.put(node.id(), node.limits().toArray());
            }
            Map<Integer, String> placed = GangPlanner.pack(ranks, empty, main);
            if (placed == null) {
                continue;
            }
            double inWay = 0;
            for (String nodeId : new HashSet<>(placed.values())) {
                inWay += stuck.get(nodeId);
            }
            if (inWay < bestStuck) {
                best = placed;
                bestDomain = domain.getKey();
                bestStuck = inWay;
            }
        }
        return best == null ? null : reservation(index, at, bestDomain.isEmpty() ? null : constraint.level() + " "
                + bestDomain, ranks, best, now, null);
    }

    private static GangReservation reservation(SchedulingIndex index, int at, String domain, List<GangPlanner.Rank> ranks,
            Map<Integer, String> placed, Instant now, Instant start) {
        Map<String, double[]> needs = new TreeMap<>();
        for (GangPlanner.Rank rank : ranks) {
            add(needs.computeIfAbsent(placed.get(rank.index()), n -> new double[SchedulingIndex.N]),
                    rank.resources().toArray(), 1);
        }
        Map<String, Resources> nodes = new TreeMap<>();
        needs.forEach((node, wants) -> nodes.put(node, Resources.of(wants)));
        return new GangReservation(index.operations[at].id(), index.tree, domain, nodes, now, start);
    }

    /** The bounded ends of the jobs on {@code nodes}, earliest first. */
    private static List<End> ends(SchedulingIndex index, List<Node> nodes, Instant now) {
        List<End> out = new ArrayList<>();
        for (Node node : nodes) {
            for (Job job : node.jobs()) {
                Instant end = boundEnd(index, job);
                if (end != null) {
                    out.add(new End(end.isBefore(now) ? now : end, node.id(), job.resources().toArray()));
                }
            }
        }
        out.sort(Comparator.comparing(End::at).thenComparing(End::nodeId));
        return out;
    }

    /** What is free once the first {@code count} ends came. */
    private static Map<String, double[]> withEnds(Map<String, double[]> free, List<End> ends, int count) {
        Map<String, double[]> out = new LinkedHashMap<>();
        free.forEach((node, room) -> out.put(node, room.clone()));
        for (int i = 0; i < count; i++) {
            add(out.get(ends.get(i).nodeId()), ends.get(i).resources(), 1);
        }
        return out;
    }

    private static void add(double[] to, double[] what, int sign) {
        for (int r = 0; r < to.length; r++) {
            to[r] += sign * what[r];
        }
    }
}
