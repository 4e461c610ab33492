package io.grove.api;

/**
 * One attempt of one job.
 *
 * @param state {@code running}, {@code completed}, {@code failed} or {@code aborted}
 * @param nodeAddress the node agent's HTTP endpoint, where the job's logs are
 * @param reason why it ended: {@code failed}, {@code preempted}, {@code resource_limits_violated}, ...
 */
public record JobView(String id, String operationId, String task, int index, int attempt, String state, String node,
        String nodeAddress, String tree, Amounts resources, String startedAt, String finishedAt, String reason,
        String message) {
}
