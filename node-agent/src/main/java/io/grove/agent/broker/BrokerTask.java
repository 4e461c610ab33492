package io.grove.agent.broker;

/** A task in the broker: queued or in fly. Mutable, owned by {@link ResourceBroker}. */
final class BrokerTask {

    final TaskKey key;
    final long submittedAt;
    final long sequence;
    String name;
    BrokerResources resources;
    String type;
    long priority;
    String cookie;
    TaskQueue queue;
    boolean inFly;
    long startedAt;
    long plannedEnd;

    BrokerTask(TaskKey key, TaskRequest request, long now, long sequence) {
        this.key = key;
        this.submittedAt = now;
        this.sequence = sequence;
        this.name = request.name();
        this.resources = request.resources();
        this.type = request.type();
        this.priority = request.priority();
        this.cookie = request.cookie();
    }

    TaskView view() {
        return new TaskView(key.client(), key.taskId(), name, type, queue == null ? "" : queue.name, resources, priority,
                inFly, submittedAt, inFly ? startedAt : 0, inFly ? plannedEnd : 0);
    }
}
