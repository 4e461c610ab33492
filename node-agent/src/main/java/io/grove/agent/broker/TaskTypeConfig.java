package io.grove.agent.broker;

/**
 * A task type (docs/broker.md; the original calls it {@code TTaskConfig}): which queue its tasks go to and how long they are
 * expected to run until the broker has statistics of its own.
 *
 * @param name the type's name, as tasks give it
 * @param queue the queue its tasks go to
 * @param defaultDurationMs the planned duration before statistics, in milliseconds
 */
public record TaskTypeConfig(String name, String queue, long defaultDurationMs) {

    public TaskTypeConfig {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a task type needs a name");
        }
        if (queue == null || queue.isBlank()) {
            throw new IllegalArgumentException("task type '" + name + "' needs a queue");
        }
        if (defaultDurationMs < 0) {
            throw new IllegalArgumentException("task type '" + name + "': default duration must be non-negative");
        }
    }
}
