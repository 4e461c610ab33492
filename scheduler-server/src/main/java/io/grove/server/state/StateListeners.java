package io.grove.server.state;

import io.grove.core.operation.Job;
import io.grove.core.operation.Operation;
import io.grove.core.operation.RegistryListener;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Everyone who hears the registry's changes, in one ordered list with names: the journal first
 * (what is journaled is what revival rebuilds, so nothing else may see a change the journal has not
 * been handed), then the event stream, metrics, the ledger, the log. Each change goes to each
 * listener in that order, on the scheduler's thread; a new listener (webhooks, an audit trail) is
 * one more entry, not one more branch.
 */
public final class StateListeners implements RegistryListener {

    /** The name the first listener must have. */
    public static final String JOURNAL = "journal";

    /** A listener and what to call it in logs and tests. */
    public record Named(String name, RegistryListener listener) {
        public Named {
            if (name == null || name.isBlank() || listener == null) {
                throw new IllegalArgumentException("a state listener needs a name and a listener, not " + name);
            }
        }
    }

    private final Named[] listeners;

    private StateListeners(List<Named> listeners) {
        this.listeners = listeners.toArray(new Named[0]);
    }

    /** A list that starts with the journal's listener. */
    public static Builder journalFirst(RegistryListener journal) {
        return new Builder().add(JOURNAL, journal);
    }

    /** Checks the order: the journal first, each name once. */
    static StateListeners of(List<Named> listeners) {
        if (listeners.isEmpty() || !listeners.get(0).name().equals(JOURNAL)) {
            throw new IllegalArgumentException("the journal must hear every change first, but the listeners are "
                    + names(listeners));
        }
        Set<String> seen = new HashSet<>();
        for (Named named : listeners) {
            if (!seen.add(named.name())) {
                throw new IllegalArgumentException("state listener '" + named.name() + "' is listed twice in "
                        + names(listeners));
            }
        }
        return new StateListeners(listeners);
    }

    /** The listeners' names, in the order they hear a change. */
    public List<String> names() {
        return names(List.of(listeners));
    }

    private static List<String> names(List<Named> listeners) {
        return listeners.stream().map(Named::name).toList();
    }

    @Override
    public void operationSubmitted(Operation operation) {
        for (Named named : listeners) {
            named.listener().operationSubmitted(operation);
        }
    }

    @Override
    public void jobStarted(Job job) {
        for (Named named : listeners) {
            named.listener().jobStarted(job);
        }
    }

    @Override
    public void jobEnded(Job job) {
        for (Named named : listeners) {
            named.listener().jobEnded(job);
        }
    }

    @Override
    public void operationFinished(Operation operation) {
        for (Named named : listeners) {
            named.listener().operationFinished(operation);
        }
    }

    /** Adds listeners after the journal, in the order they are to hear changes. */
    public static final class Builder {
        private final List<Named> listeners = new ArrayList<>();

        private Builder() {
        }

        /** Adds {@code listener} next; {@code null} (a part that is off, such as the ledger) adds nothing. */
        public Builder add(String name, RegistryListener listener) {
            if (listener != null) {
                listeners.add(new Named(name, listener));
            }
            return this;
        }

        public StateListeners build() {
            return of(listeners);
        }
    }
}
