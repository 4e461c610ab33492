package io.grove.core.pool;

import java.time.Duration;

/**
 * Tree-level preemption settings (see docs/scheduling.md#which-jobs-may-be-preempted).
 *
 * @param preemptionSatisfactionThreshold jobs above fair share times this are preemptible
 * @param aggressivePreemptionSatisfactionThreshold boundary of the aggressively preemptible jobs
 * @param nonPreemptibleResourceUsageThreshold an operation below this usage keeps all its jobs
 * @param preemptiveSchedulingBackoff minimum interval between preemptive passes on one node
 * @param preemptionCheckStarvation starving ancestors block preemption
 * @param preemptionCheckSatisfaction unsatisfied ancestors block preemption
 * @param enableConditionalPreemption preemption within the subtree of the blocking pool
 * @param allocationPreemptionTimeout grace given to preempted jobs
 * @param allocationGracefulPreemptionTimeout grace for operations with graceful preemption
 * @param allowAggressivePreemptionForGangOperations whether gang jobs may be preempted aggressively
 * @param minJobRuntimeBeforePreemption a job younger than this is not taken for a starving
 *     operation (pools may set their own; limits lowered under it still take it)
 * @param victimOrder how starvation preemption chooses among the jobs it may take
 * @param gangReservations when starving gangs get reservations with backfill
 */
public record PreemptionSettings(
        double preemptionSatisfactionThreshold,
        double aggressivePreemptionSatisfactionThreshold,
        PartialResources nonPreemptibleResourceUsageThreshold,
        Duration preemptiveSchedulingBackoff,
        boolean preemptionCheckStarvation,
        boolean preemptionCheckSatisfaction,
        boolean enableConditionalPreemption,
        Duration allocationPreemptionTimeout,
        Duration allocationGracefulPreemptionTimeout,
        boolean allowAggressivePreemptionForGangOperations,
        Duration minJobRuntimeBeforePreemption,
        VictimOrder victimOrder,
        GangReservations gangReservations) {

    public static final PreemptionSettings DEFAULT = new PreemptionSettings(1.0, 0.2, PartialResources.EMPTY,
            Duration.ofSeconds(5), true, true, true, Duration.ofSeconds(10), Duration.ofSeconds(60), true, Duration.ZERO,
            VictimOrder.LEAST_LOST_WORK, GangReservations.DEFAULT);

    public PreemptionSettings {
        gangReservations = gangReservations == null ? GangReservations.DEFAULT : gangReservations;
    }

    /** The same with another victim order. */
    public PreemptionSettings withVictimOrder(VictimOrder order) {
        return with(order, gangReservations);
    }

    /** The same with other reservation settings. */
    public PreemptionSettings withGangReservations(GangReservations reservations) {
        return with(victimOrder, reservations);
    }

    private PreemptionSettings with(VictimOrder order, GangReservations reservations) {
        return new PreemptionSettings(preemptionSatisfactionThreshold, aggressivePreemptionSatisfactionThreshold,
                nonPreemptibleResourceUsageThreshold, preemptiveSchedulingBackoff, preemptionCheckStarvation,
                preemptionCheckSatisfaction, enableConditionalPreemption, allocationPreemptionTimeout,
                allocationGracefulPreemptionTimeout, allowAggressivePreemptionForGangOperations, minJobRuntimeBeforePreemption,
                order, reservations);
    }
}
