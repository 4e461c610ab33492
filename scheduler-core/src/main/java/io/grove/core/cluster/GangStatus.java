package io.grove.core.cluster;

import io.grove.core.schedule.GangPlan;
import io.grove.core.schedule.GangPlanner;

/**
 * Where a gang stands in a tree.
 *
 * @param plan its plan — ranks being started, or running — or {@code null}
 * @param waiting why it waits to be planned (its last try), or {@code null}
 * @param restarting whether its ranks are stopping so that it starts again as a whole
 */
public record GangStatus(GangPlan plan, GangPlanner.Waiting waiting, boolean restarting) {

    /** A gang the tree knows nothing of yet. */
    public static final GangStatus NONE = new GangStatus(null, null, false);
}
