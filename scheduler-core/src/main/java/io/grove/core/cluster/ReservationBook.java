package io.grove.core.cluster;

import io.grove.core.pool.GangReservations;
import io.grove.core.schedule.GangReservation;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One tree's gang reservations (docs/scheduling.md#reservations-with-backfill), by gang and by node,
 * and since when each gang without one has starved. A node is held by one reservation at most.
 */
final class ReservationBook {

    private final Map<String, GangReservation> byGang = new LinkedHashMap<>();
    private final Map<String, GangReservation> byNode = new HashMap<>();
    /** Since when each starving gang that does not fit has waited: not journaled, a restart starts it again. */
    private final Map<String, Instant> starving = new HashMap<>();
    /** When a gang due a reservation last found no nodes to hold (it tries again {@link #RETRY} later). */
    private final Map<String, Instant> failed = new HashMap<>();

    /** How long a gang that found no nodes to hold waits before it looks again. */
    static final Duration RETRY = Duration.ofSeconds(10);

    GangReservation of(String operationId) {
        return byGang.get(operationId);
    }

    /** The reservation holding a node, or {@code null}. */
    GangReservation on(String nodeId) {
        return byNode.isEmpty() ? null : byNode.get(nodeId);
    }

    List<GangReservation> all() {
        return new ArrayList<>(byGang.values());
    }

    int size() {
        return byGang.size();
    }

    boolean isEmpty() {
        return byGang.isEmpty();
    }

    /** Adds or replaces the gang's reservation. */
    void put(GangReservation reservation) {
        remove(reservation.operationId());
        byGang.put(reservation.operationId(), reservation);
        for (String node : reservation.nodes().keySet()) {
            byNode.put(node, reservation);
        }
    }

    /** Drops the gang's reservation; returns it, or {@code null}. */
    GangReservation remove(String operationId) {
        GangReservation gone = byGang.remove(operationId);
        if (gone != null) {
            for (String node : gone.nodes().keySet()) {
                byNode.remove(node, gone);
            }
        }
        return gone;
    }

    /** Since when the gang starves without fitting (from now, if it was not known to). */
    Instant starving(String operationId, Instant now) {
        return starving.computeIfAbsent(operationId, id -> now);
    }

    /** Since when the gang has starved without fitting, or {@code null}. */
    Instant starvingSince(String operationId) {
        return starving.get(operationId);
    }

    /** The gang does not starve waiting (it runs, is planned, waits for limits, or is gone). */
    void notStarving(String operationId) {
        starving.remove(operationId);
    }

    /** Since when each starving gang has starved without fitting. */
    Map<String, Instant> starving() {
        return Map.copyOf(starving);
    }

    /** Puts back since when gangs have starved (a forecast's copy). */
    void restoreStarving(Map<String, Instant> since) {
        starving.putAll(since);
    }

    /**
     * When the next starving gang without a reservation gets one (after {@code now}), as far as the
     * tree's settings allow one more; {@code null} for none.
     */
    Instant nextDue(Instant now, GangReservations settings) {
        if (!settings.enabled() || byGang.size() >= settings.max()) {
            return null;
        }
        Instant next = null;
        for (Map.Entry<String, Instant> gang : starving.entrySet()) {
            Instant due = gang.getValue().plus(settings.timeout());
            if (!byGang.containsKey(gang.getKey()) && due.isAfter(now) && (next == null || due.isBefore(next))) {
                next = due;
            }
        }
        return next;
    }

    /** Forgets the starving gangs not in {@code still}. */
    void keepStarving(Set<String> still) {
        starving.keySet().retainAll(still);
        failed.keySet().retainAll(still);
    }

    /** Whether the gang may look for nodes to hold now: it did not find none within {@link #RETRY}. */
    boolean mayTry(String operationId, Instant now) {
        Instant last = failed.get(operationId);
        return last == null || !now.isBefore(last.plus(RETRY));
    }

    /** Whether the gang found nodes to hold ({@code any}), or none. */
    void found(String operationId, boolean any, Instant now) {
        if (any) {
            failed.remove(operationId);
        } else {
            failed.put(operationId, now);
        }
    }
}
