package io.grove.core.cluster;

import io.grove.core.schedule.GangPlan;
import io.grove.core.schedule.GangReservation;

/** Hears what happens to gangs as a whole, on the scheduler's thread (the event stream says it). */
public interface GangListener {
    GangListener NONE = new GangListener() {
    };

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
