package io.grove.agent.broker;

/** What the broker tells its clients and observers after an operation. */
public sealed interface BrokerEvent {

    /** The client the event is for. */
    String client();

    /**
     * Resources were allocated to a task: it may run now (seed's {@code TEvResourceAllocated}).
     *
     * @param inQueueMs how long the task waited, in milliseconds
     */
    record Allocated(String client, long taskId, String name, String type, String queue, String cookie,
            long inQueueMs) implements BrokerEvent {
    }

    /** An operation on a task was refused (seed's {@code TEvTaskOperationError}). */
    record TaskError(String client, long taskId, BrokerErrorCode code, String message, String cookie)
            implements BrokerEvent {
    }

    /**
     * A running task ended and released its resources.
     *
     * @param executionMs how long it ran, in milliseconds
     * @param cancelled whether it ended because its client died (not counted in the statistics)
     */
    record Finished(String client, long taskId, String type, String queue, long executionMs, boolean cancelled)
            implements BrokerEvent {
    }
}
