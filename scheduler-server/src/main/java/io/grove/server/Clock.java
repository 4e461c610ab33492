package io.grove.server;

import java.time.Instant;
import java.time.InstantSource;

/**
 * Where the scheduler daemon gets the time: a {@link InstantSource} (the node agent takes one too),
 * read as {@link #now()}. Tests pass a fake one.
 */
@FunctionalInterface
public interface Clock extends InstantSource {

    Instant now();

    @Override
    default Instant instant() {
        return now();
    }

    /** The wall clock: the one place in the daemon that reads it. */
    Clock SYSTEM = Instant::now;
}
