package io.grove.server;

import java.time.Instant;

/** Where the daemon gets the time; tests pass a fake one. */
@FunctionalInterface
public interface Clock {

    Instant now();

    /** The wall clock: the one place in the daemon that reads it. */
    Clock SYSTEM = Instant::now;
}
