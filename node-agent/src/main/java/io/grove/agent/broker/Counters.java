package io.grove.agent.broker;

/**
 * The seed's sensors for one label (a queue, {@code total}, or a task type): enqueued and in-fly
 * tasks, finished tasks (cumulative) and the resources allocated to running tasks.
 */
public final class Counters {

    long enqueued;
    long inFly;
    long finished;
    long cpuMillis;
    long memory;

    void hold(BrokerResources resources, int sign) {
        cpuMillis += sign * resources.cpuMillis();
        memory += sign * resources.memory();
    }

    CounterValues values() {
        return new CounterValues(enqueued, inFly, finished, cpuMillis, memory);
    }

    /** The values of one label's sensors at one moment. */
    public record CounterValues(long enqueuedTasks, long inFlyTasks, long finishedTasks, long cpuConsumptionMillis,
            long memoryConsumption) {
    }
}
