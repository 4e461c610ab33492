package io.grove.core.cluster;

import io.grove.core.schedule.GangPlan;
import io.grove.core.schedule.GangPlanner;
import io.grove.core.schedule.GangReservation;
import java.time.Instant;

/**
 * Where a gang stands in a tree.
 *
 * @param plan its plan — ranks being started, or running — or {@code null}
 * @param waiting why it waits to be planned (its last try), or {@code null}
 * @param restarting whether its ranks are stopping so that it starts again as a whole
 * @param reservation its reservation, or {@code null}
 * @param starvingSince since when it has starved without fitting (a reservation comes after the
 *     tree's {@code gang_reservation_timeout}), or {@code null}
 */
public record GangStatus(GangPlan plan, GangPlanner.Waiting waiting, boolean restarting, GangReservation reservation,
        Instant starvingSince) {

    /** A gang the tree knows nothing of yet. */
    public static final GangStatus NONE = new GangStatus(null, null, false, null, null);
}
