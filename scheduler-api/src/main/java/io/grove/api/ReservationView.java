package io.grove.api;

import java.util.Map;

/**
 * A starving gang's reservation (docs/scheduling.md#reservations-with-backfill): the nodes it is to
 * start on, where only jobs bounded to end before its predicted start, or that fit beside it, start.
 *
 * @param operationId the gang
 * @param domain the domain of its required level ({@code rack r07}); absent when it has none
 * @param nodes what its ranks need on each node it holds
 * @param since when it was made
 * @param predictedStart when the gang is predicted to fit (the jobs in its way reach their time
 *     limits); absent when a job in its way has no time limit
 */
public record ReservationView(String operationId, String domain, Map<String, Amounts> nodes, @Timestamp String since,
        @Timestamp String predictedStart) {
}
