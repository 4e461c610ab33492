package io.grove.agent.broker;

import java.util.List;
import java.util.Map;

/**
 * The broker's monitoring view at one moment: its configuration, the seed's sensors per queue
 * (and {@code total}) and per task type, every queue's consumption and every task.
 *
 * @param now the broker's time, milliseconds
 * @param used what running tasks hold
 * @param nodeCapacity the most running tasks may hold on this node
 * @param missingTaskTypes tasks submitted with an undeclared type ({@code MissingTaskTypeCounter})
 */
public record BrokerStatus(long now, BrokerConfig config, BrokerResources used, BrokerResources nodeCapacity,
        List<QueueState> queues, List<TypeState> types, Map<String, Counters.CounterValues> queueCounters,
        Map<String, Counters.CounterValues> typeCounters, long missingTaskTypes, List<TaskView> tasks) {

    /**
     * A queue's state.
     *
     * @param real {@code C_R / Weight}, share·milliseconds
     * @param planned {@code C_P / Weight}, share·milliseconds
     */
    public record QueueState(String name, long weight, BrokerResources limit, BrokerResources used, double real,
            double planned, boolean active, int waiting, int inFly) {
    }

    /**
     * A task type's planning data.
     *
     * @param plannedDurationMs the duration planned for its next task
     * @param measured how many of its tasks have finished
     */
    public record TypeState(String name, String queue, long defaultDurationMs, long plannedDurationMs, long measured) {
    }
}
