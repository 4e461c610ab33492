package io.grove.core.cluster;

import io.grove.core.node.Node;
import io.grove.core.operation.Operation;
import io.grove.core.pool.GangReservations;
import io.grove.core.schedule.GangReservation;
import io.grove.core.schedule.GangScheduling;
import io.grove.core.schedule.Reservations;
import io.grove.core.schedule.SchedulingIndex;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Looks after one tree's gang reservations (docs/scheduling.md#reservations-with-backfill), at each
 * check of the nodes: drops those whose gang was planned, finished, stopped starving for room, or
 * lost a node; predicts each one's start again; and gives one to each gang that has starved without
 * fitting for the tree's {@code gang_reservation_timeout}, longest starving first, up to
 * {@code max_gang_reservations}.
 */
final class ReservationKeeper {

    private ReservationKeeper() {
    }

    static void keep(Gangs gangs, Cluster cluster, String tree, TreeState state, Instant now) {
        SchedulingIndex index = state.index;
        ReservationBook book = state.reservations;
        GangReservations settings = cluster.registry().pools(tree).effectiveConfig().preemption().gangReservations();
        GangScheduling.Held held = gangs.held(tree, state);
        List<Node> nodes = new ArrayList<>();
        for (Node node : cluster.nodes()) {
            if (tree.equals(node.tree())) {
                nodes.add(node);
            }
        }
        for (GangReservation reservation : book.all()) {
            String why = stale(cluster, index, held, settings, reservation);
            if (why != null) {
                gangs.unreserve(state, reservation.operationId(), why);
                continue;
            }
            Instant start = Reservations.predict(index, reservation, cluster.nodeMap(), free(reservation, cluster, held), now);
            if (!Objects.equals(start, reservation.start())) {
                book.put(reservation.withStart(start));
            }
        }
        List<GangReservation> newestFirst = book.all();
        newestFirst.sort(Comparator.comparing(GangReservation::since).reversed());
        for (int i = 0; book.size() > settings.max() && i < newestFirst.size(); i++) {
            gangs.unreserve(state, newestFirst.get(i).operationId(), "the tree's max_gang_reservations is "
                    + settings.max());
        }
        List<String> starving = GangScheduling.starvingForRoom(index, held);
        List<String> due = new ArrayList<>();
        Map<String, Instant> since = new HashMap<>();
        for (String id : starving) {
            since.put(id, book.starving(id, now));
            if (book.of(id) == null && !now.isBefore(since.get(id).plus(settings.timeout()))) {
                due.add(id);
            }
        }
        book.keepStarving(new HashSet<>(starving));
        due.sort(Comparator.comparing((String id) -> since.get(id)).thenComparing(id -> id));
        for (String id : due) {
            if (book.size() >= settings.max()) {
                break;
            }
            if (!book.mayTry(id, now)) {
                continue;
            }
            GangReservation made = GangScheduling.reserve(index, id, nodes, held, now);
            book.found(id, made != null, now);
            if (made != null) {
                gangs.reserved(state, made.withStart(Reservations.predict(index, made, cluster.nodeMap(),
                        free(made, cluster, held), now)));
            }
        }
    }

    /** Why a reservation goes, or {@code null} while it holds. */
    private static String stale(Cluster cluster, SchedulingIndex index, GangScheduling.Held held,
            GangReservations settings, GangReservation reservation) {
        if (!settings.enabled()) {
            return "the tree's max_gang_reservations is 0";
        }
        Operation operation = cluster.registry().operation(reservation.operationId());
        if (operation == null || operation.state().isFinished()) {
            return "the operation finished";
        }
        if (held.planned(reservation.operationId())) {
            return "the gang was planned";
        }
        if (!GangScheduling.waitsForRoom(index, reservation.operationId(), held)) {
            return "the gang no longer starves waiting for room (its fair share is zero, its pool is paused, or limits hold it)";
        }
        for (String nodeId : reservation.nodes().keySet()) {
            Node node = cluster.node(nodeId);
            // a node offline but not forgotten (one that has not reconnected since a restart) keeps it
            if (node == null || !reservation.tree().equals(node.tree())
                    || node.state() == Node.State.ONLINE && !node.schedulable()) {
                return "node " + nodeId + " of it left the tree or cannot start jobs";
            }
        }
        return null;
    }

    /** What is free on each of the reservation's nodes now, less what plans hold. */
    private static Map<String, double[]> free(GangReservation reservation, Cluster cluster, GangScheduling.Held held) {
        Map<String, double[]> out = new HashMap<>();
        for (String nodeId : reservation.nodes().keySet()) {
            Node node = cluster.node(nodeId);
            if (node == null) {
                continue;
            }
            double[] free = node.limits().toArray();
            double[] used = node.usage().toArray();
            double[] hold = held.held(nodeId).toArray();
            for (int r = 0; r < free.length; r++) {
                free[r] = Math.max(0, free[r] - used[r] - hold[r]);
            }
            out.put(nodeId, free);
        }
        return out;
    }
}
