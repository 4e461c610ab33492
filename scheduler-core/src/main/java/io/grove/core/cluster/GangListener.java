package io.grove.core.cluster;

import io.grove.core.schedule.GangPlan;
import io.grove.core.schedule.GangReservation;
import java.util.List;

/** Hears what happens to gangs as a whole, on the scheduler's thread (the event stream says it). */
public interface GangListener {
    GangListener NONE = new GangListener() {
    };

    /** Each of {@code listeners} hears every change, in order (the journal first). */
    static GangListener of(GangListener... listeners) {
        List<GangListener> all = List.of(listeners);
        return new GangListener() {
            @Override
            public void planned(GangPlan plan) {
                all.forEach(l -> l.planned(plan));
            }

            @Override
            public void started(GangPlan plan) {
                all.forEach(l -> l.started(plan));
            }

            @Override
            public void restarting(String operationId, String tree, String why) {
                all.forEach(l -> l.restarting(operationId, tree, why));
            }

            @Override
            public void reserved(GangReservation reservation) {
                all.forEach(l -> l.reserved(reservation));
            }

            @Override
            public void unreserved(GangReservation reservation, String why) {
                all.forEach(l -> l.unreserved(reservation, why));
            }
        };
    }

    /** A gang got a node for every rank; its nodes are asked to heartbeat now. */
    default void planned(GangPlan plan) {
    }

    /** Every rank of a plan started. */
    default void started(GangPlan plan) {
    }

    /** A rank ended otherwise than completing (or the plan was dropped): every rank stops, and the gang starts again whole. */
    default void restarting(String operationId, String tree, String why) {
    }

    /** A starving gang got a reservation (made, or moved to other nodes). */
    default void reserved(GangReservation reservation) {
    }

    /** A gang's reservation was dropped, and why (planned, finished, no longer starving, a node gone). */
    default void unreserved(GangReservation reservation, String why) {
    }
}
