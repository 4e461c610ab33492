package io.grove.server;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * What a start has opened so far, to close in reverse order if a later stage fails: a failed start
 * leaves no file, thread or port behind.
 */
final class Closer {

    /** Something to close, which may throw. */
    @FunctionalInterface
    interface Closing {
        void close() throws Exception;
    }

    private final Deque<Closing> opened = new ArrayDeque<>();

    /** Remembers {@code closing} and gives back {@code value}. */
    <T> T add(T value, Closing closing) {
        opened.push(closing);
        return value;
    }

    /** Closes everything, newest first; what fails to close is added to {@code failure} as suppressed. */
    void closeAll(Throwable failure) {
        while (!opened.isEmpty()) {
            try {
                opened.pop().close();
            } catch (Exception e) {
                failure.addSuppressed(e);
            }
        }
    }
}
