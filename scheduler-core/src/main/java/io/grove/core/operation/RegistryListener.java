package io.grove.core.operation;

/**
 * Hears every job start and end and every operation's end, after the registry changed; the
 * daemon journals them. Not called for what is restored from the journal.
 */
public interface RegistryListener {
    RegistryListener NONE = new RegistryListener() {
    };

    /** A held submission was released: its record is durable, it may run. */
    default void operationSubmitted(Operation operation) {
    }

    default void jobStarted(Job job) {
    }

    default void jobEnded(Job job) {
    }

    default void operationFinished(Operation operation) {
    }
}
