package io.grove.core.operation;

/**
 * What a preempted job was taken for: the operation and its pool that got the room (both
 * {@code null} when nothing did: limits lowered under the job, its graceful operation above its
 * share, its pool drained), and why in a word ({@code starvation}, {@code aggressive_starvation},
 * {@code resource_limits_violated}, {@code graceful}, {@code pool_drained}). The full sentence is
 * the job's message.
 */
public record PreemptedFor(String reason, String operationId, String pool) {
}
