package io.grove.http;

import java.util.function.Consumer;

/**
 * An answer that goes on: Server-Sent Events. {@link #open} starts it, giving each frame (text in
 * the {@code text/event-stream} format, ending with a blank line) to the sink, from any thread,
 * without blocking; the handle it returns ends it when the connection closes.
 */
@FunctionalInterface
public interface EventStream {

    /**
     * Starts the stream.
     *
     * @throws ApiException when it cannot start (answered as an error instead)
     */
    AutoCloseable open(Consumer<String> sink);
}
