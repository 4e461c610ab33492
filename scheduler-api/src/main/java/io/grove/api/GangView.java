package io.grove.api;

import java.util.List;

/**
 * A gang operation's place ({@code gang} of {@code GET /api/v1/operations/{id}}): all of its jobs
 * start together or none, inside one domain of its required topology level.
 *
 * @param size how many ranks it has (its jobs)
 * @param topology {@code required rack}, {@code preferred rack} or {@code none}
 * @param state {@code waiting} (for room for every rank at once), {@code starting} (its plan's ranks
 *     being started on their nodes), {@code running}, {@code restarting} (its ranks stopping so that it
 *     starts again whole), or {@code finished}
 * @param domain the domain its plan sits in ({@code rack r07}), absent when it spans or has no plan
 * @param plannedAt when its plan was made
 * @param masterNode the node of rank 0 ({@code MASTER_ADDR})
 * @param masterPort rank 0's port ({@code MASTER_PORT})
 * @param ranks each rank's node, and its job once started
 * @param waiting why it waits, with the domains that came closest
 * @param starvingSince since when it has starved waiting for room (absent when it does not)
 * @param reservation its reservation, absent when it holds none
 */
public record GangView(int size, String topology, String state, String domain, @Timestamp String plannedAt, String masterNode,
        Integer masterPort, List<Rank> ranks, String waiting, @Timestamp String starvingSince, ReservationView reservation) {

    /** A gang that neither starves nor holds a reservation. */
    public GangView(int size, String topology, String state, String domain, String plannedAt, String masterNode,
            Integer masterPort, List<Rank> ranks, String waiting) {
        this(size, topology, state, domain, plannedAt, masterNode, masterPort, ranks, waiting, null, null);
    }

    /** One rank of a plan: its number, its node, and its job once started. */
    public record Rank(int rank, String node, String jobId) {
    }
}
