package io.grove.core.cluster;

import java.time.Instant;
import java.util.Map;

/**
 * What a forecast's copy of the cluster needs to run ahead of time: when something next changes
 * without a job ending (a starvation, a preemptive pass, a gang's reservation falling due, a time
 * limit passing), and the upkeep that the daemon's node checks do.
 */
public final class RunAhead {

    private final Cluster cluster;
    private final Map<String, TreeState> trees;

    RunAhead(Cluster cluster, Map<String, TreeState> trees) {
        this.cluster = cluster;
        this.trees = trees;
    }

    /**
     * When a node may next make a preemptive pass for a starving operation (a forecast steps to it,
     * as the daemon's heartbeats come), or {@code null} when nothing starves.
     */
    public Instant nextPreemptivePass(Instant now) {
        return PreemptionTiming.next(trees, cluster.nodes(), cluster.registry(), now);
    }

    /** The earliest time after {@code now} at which an element of some tree starves, or {@code null}. */
    public Instant nextStarvation(Instant now) {
        return PreemptionTiming.nextStarvation(trees, now);
    }

    /** The earliest time after {@code now} at which a starving gang gets a reservation, or {@code null}. */
    public Instant nextReservation(Instant now) {
        Instant next = null;
        for (Map.Entry<String, TreeState> tree : trees.entrySet()) {
            Instant due = tree.getValue().reservations.nextDue(now, cluster.registry().pools(tree.getKey())
                    .effectiveConfig().preemption().gangReservations());
            next = due != null && (next == null || due.isBefore(next)) ? due : next;
        }
        return next;
    }

    /** When the next job's time limit passes, or {@code null} when no running job has one. */
    public Instant nextTimeLimit() {
        return cluster.timeLimits().next();
    }

    /**
     * What a check of the nodes does but for the nodes themselves: gangs' plans dropped at their
     * deadline, reservations made and dropped, and jobs past their time limits stopped gracefully.
     */
    public void keepUp(Instant now) {
        cluster.gangs().expire(now);
        cluster.gangs().keepReservations(now);
        cluster.timeLimits().enforce(cluster, now);
    }
}
