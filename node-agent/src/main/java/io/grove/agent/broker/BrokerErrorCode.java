package io.grove.agent.broker;

/** Why the broker refused an operation on a task (docs/broker.md; the original calls it {@code TStatus::ECode}). */
public enum BrokerErrorCode {
    /** Submit with an id the client already uses. */
    ALREADY_EXISTS,
    /** Update, update cookie, remove or finish of a task the client does not have. */
    UNKNOWN_TASK,
    /** Remove of a task that is running. */
    TASK_IN_FLY,
    /** Finish of a task that is still queued. */
    TASK_IN_QUEUE
}
