package io.grove.agent.broker;

/**
 * A task as a client submits it (docs/broker.md; the original calls it {@code TTask}).
 *
 * @param taskId the client's id for the task, unique among its tasks; 0 lets the broker choose one
 *     (the client learns it only when the task is allocated, by its cookie)
 * @param name for logs and the monitoring view
 * @param resources what the task needs while it runs
 * @param type its task type, which chooses the queue; undeclared types count as {@code unknown}
 * @param priority lower runs first; equal priorities run in submission order
 * @param cookie opaque data returned with the allocation, may be {@code null}
 */
public record TaskRequest(long taskId, String name, BrokerResources resources, String type, long priority,
        String cookie) {

    public TaskRequest {
        if (taskId < 0) {
            throw new IllegalArgumentException("task_id must be non-negative, got " + taskId);
        }
        if (priority < 0) {
            throw new IllegalArgumentException("priority must be non-negative, got " + priority);
        }
        name = name == null ? "" : name;
        resources = resources == null ? BrokerResources.ZERO : resources;
        type = type == null || type.isEmpty() ? BrokerConfig.UNKNOWN_TYPE : type;
    }
}
