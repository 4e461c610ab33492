package io.grove.api;

import java.util.List;
import java.util.Map;

/**
 * An agent's {@code GET /api/v1/broker}: its Resource Broker's configuration (as YAML), what it
 * uses of what it may, its queues, task types, sensors and every task.
 *
 * @param missingTaskTypes tasks of undeclared types seen so far
 */
public record BrokerView(String configYaml, Amounts used, Amounts nodeCapacity, Amounts resourceLimit,
        long missingTaskTypes, List<Queue> queues, List<TaskType> taskTypes, Sensors sensors, List<Task> tasks) {

    /** A queue: weight, limit, usage, real and planned consumption, its tasks. */
    public record Queue(String name, long weight, Amounts limit, Amounts used, double realUsage, double plannedUsage,
            boolean active, int waiting, int inFly) {
    }

    /** A task type: its queue, durations and how many of its tasks finished. */
    public record TaskType(String name, String queue, long defaultDurationMs, long plannedDurationMs, long finished) {
    }

    /** The broker's sensors per queue and per task type. */
    public record Sensors(Map<String, Counters> queue, Map<String, Counters> task) {
    }

    /** One label's sensors. */
    public record Counters(long enqueuedTasks, long inFlyTasks, long finishedTasks, long cpuConsumptionMillis,
            long memoryConsumption) {
    }

    /**
     * A task queued or running in the broker.
     *
     * @param state {@code queued} or {@code in_fly}
     * @param runningMs for a task in fly
     */
    public record Task(String client, long taskId, String name, String type, String queue, Amounts resources,
            long priority, String state, long waitedMs, Long runningMs) {
    }
}
