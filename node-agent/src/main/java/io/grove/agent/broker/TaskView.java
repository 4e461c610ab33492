package io.grove.agent.broker;

/**
 * One task as the monitoring view shows it.
 *
 * @param submittedAt when it was submitted, milliseconds on the broker's clock
 * @param startedAt when it was allocated, 0 while queued
 * @param plannedEnd when it is expected to end, 0 while queued
 */
public record TaskView(String client, long taskId, String name, String type, String queue,
        BrokerResources resources, long priority, boolean inFly, long submittedAt, long startedAt, long plannedEnd) {
}
