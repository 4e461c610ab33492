package io.grove.core.schedule;

import io.grove.core.operation.Job;
import io.grove.core.preempt.PreemptionStatus;

/**
 * A running job a preemptive stage may take.
 *
 * @param operation its operation's element in the index, or -1 when the index does not hold it
 * @param blocker the pool it is conditional on (taken only for an operation below it), or -1
 * @param waste the work its loss costs now: its dominant share of the tree times the seconds since
 *     its last checkpoint (or start)
 * @param share its dominant share of the tree: how fast its waste grows, a second at a time
 */
record PreemptionCandidate(Job job, int operation, PreemptionStatus status, int blocker, double[] resources,
        double waste, double share) {
}
