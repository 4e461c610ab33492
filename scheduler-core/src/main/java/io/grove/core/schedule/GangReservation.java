package io.grove.core.schedule;

import io.grove.core.resource.Resources;
import java.time.Instant;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * A starving gang's hold on the nodes it is to start on (docs/scheduling.md#reservations-with-backfill):
 * from {@code since} on, no job starts there that could still run at {@code start}, unless it fits
 * beside what the gang needs. Made by {@link Reservations#choose}, kept by the cluster, journaled.
 *
 * @param operationId the gang
 * @param tree the tree it waits in
 * @param domain the domain of its required level it is to start in ({@code rack r07}), or {@code null}
 * @param nodes what its ranks need on each node it is to start on
 * @param since when the reservation was made
 * @param start when the gang is predicted to fit there (the jobs in its way reach their time limits,
 *     and no other starts), or {@code null} when a job in its way has no time limit
 */
public record GangReservation(String operationId, String tree, String domain, Map<String, Resources> nodes,
        Instant since, Instant start) {

    public GangReservation {
        if (operationId == null || tree == null || since == null) {
            throw new IllegalArgumentException("a reservation needs a gang, a tree and a time");
        }
        if (nodes == null || nodes.isEmpty()) {
            throw new IllegalArgumentException("reservation of " + operationId + " holds no node");
        }
        nodes = Collections.unmodifiableMap(new TreeMap<>(nodes));
    }

    /** The same reservation with another predicted start. */
    public GangReservation withStart(Instant value) {
        return new GangReservation(operationId, tree, domain, nodes, since, value);
    }

    /** What the gang needs on a node, or {@code null} when the reservation does not hold it. */
    public Resources needs(String nodeId) {
        return nodes.get(nodeId);
    }

    /** {@code rack r07 (nodes n1, n2), predicted start 2026-11-28T12:40:00Z}. */
    public String describe() {
        String where = (domain == null ? "" : domain + " ") + "(node" + (nodes.size() == 1 ? " " : "s ")
                + String.join(", ", nodes.keySet()) + ")";
        return where + (start == null ? ", start unknown: a job in its way has no time limit"
                : ", predicted start " + start);
    }
}
