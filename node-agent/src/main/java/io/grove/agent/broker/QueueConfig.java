package io.grove.agent.broker;

/**
 * A broker queue (docs/broker.md; the original calls it {@code TQueueConfig}).
 *
 * @param name the queue's name, which task types refer to
 * @param weight its weight: the share of resources it gets relative to the others, at least 1
 * @param limit the most all of its running tasks may hold together; a task larger than this runs
 *     only when nothing else of the queue runs
 */
public record QueueConfig(String name, long weight, BrokerResources limit) {

    public QueueConfig {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a queue needs a name");
        }
        if (weight < 1) {
            throw new IllegalArgumentException("queue '" + name + "': weight must be at least 1, got " + weight);
        }
        limit = limit == null ? BrokerResources.UNLIMITED : limit;
    }
}
