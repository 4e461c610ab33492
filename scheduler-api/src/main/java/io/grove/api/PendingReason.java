package io.grove.api;

/**
 * Why an operation waits. {@code max_running_operation_count}: queued behind the count limit of
 * {@code pool} ({@code limit}, at {@code queuePosition}, 1 for the first in its queue); {@code job_larger_than_every_node}:
 * a job fits on no online node of {@code tree} (the message names the task and the largest node);
 * {@code pool_paused}: {@code pool} (its own or one above it) is paused by an administrator;
 * {@code dependency}: it waits for another operation to end ({@code depends_on}; the message says which).
 */
public record PendingReason(String code, String tree, String pool, Integer limit, Integer queuePosition, String message) {

    public static final String COUNT_LIMIT = "max_running_operation_count";

    public static final String TOO_LARGE = "job_larger_than_every_node";

    public static final String POOL_PAUSED = "pool_paused";

    public static final String DEPENDENCY = "dependency";
}
