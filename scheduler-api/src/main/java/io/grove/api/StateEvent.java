package io.grove.api;

/**
 * A change of an operation or a job, as {@code GET /api/v1/events} streams it.
 *
 * @param type {@code operation} (submitted, finished) or {@code job} (started, ended)
 * @param operationId the operation
 * @param jobId the job attempt, for a job
 * @param state the new state: an operation's {@code pending} (submitted), {@code completed},
 *     {@code failed} or {@code aborted}; a job's {@code running}, {@code completed}, {@code failed}
 *     or {@code aborted}
 * @param user who submitted the operation
 * @param pool its pool in its first tree
 * @param node a job's node
 * @param reason why a job ended as it did ({@code failed}, {@code preempted}, ...)
 * @param message the operation's or the job's final message
 * @param at when it happened
 */
public record StateEvent(String type, String operationId, String jobId, String state, String user, String pool,
        String node, String reason, String message, @Timestamp String at) {
}
