package io.grove.server.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.core.operation.Job;
import io.grove.core.operation.Operation;
import io.grove.core.operation.RegistryListener;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class StateListenersTest {

    /** Writes down, under its name, every change it hears. */
    private record Heard(String name, List<String> log) implements RegistryListener {
        @Override
        public void operationSubmitted(Operation operation) {
            log.add(name + " submitted");
        }

        @Override
        public void jobStarted(Job job) {
            log.add(name + " started");
        }

        @Override
        public void jobEnded(Job job) {
            log.add(name + " ended");
        }

        @Override
        public void operationFinished(Operation operation) {
            log.add(name + " finished");
        }
    }

    @Test
    void everyChangeGoesToTheJournalFirstThenToTheRestInOrder() {
        List<String> log = new ArrayList<>();
        StateListeners listeners = StateListeners.journalFirst(new Heard("journal", log))
                .add("events", new Heard("events", log))
                .add("ledger", null)
                .add("metrics", new Heard("metrics", log))
                .build();
        assertEquals(List.of("journal", "events", "metrics"), listeners.names(), "an absent part adds nothing");
        listeners.operationSubmitted(null);
        listeners.jobStarted(null);
        listeners.jobEnded(null);
        listeners.operationFinished(null);
        assertEquals(List.of("journal submitted", "events submitted", "metrics submitted",
                "journal started", "events started", "metrics started",
                "journal ended", "events ended", "metrics ended",
                "journal finished", "events finished", "metrics finished"), log);
    }

    @Test
    void aListWhoseFirstIsNotTheJournalOrThatNamesOneTwiceIsRefused() {
        List<String> log = new ArrayList<>();
        IllegalArgumentException notFirst = assertThrows(IllegalArgumentException.class, () -> StateListeners.of(
                List.of(new StateListeners.Named("events", new Heard("events", log)),
                        new StateListeners.Named("journal", new Heard("journal", log)))));
        assertTrue(notFirst.getMessage().contains("[events, journal]"), notFirst.getMessage());
        IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
                () -> StateListeners.journalFirst(new Heard("journal", log)).add("journal", new Heard("j", log)).build());
        assertTrue(twice.getMessage().contains("listed twice"), twice.getMessage());
    }
}
