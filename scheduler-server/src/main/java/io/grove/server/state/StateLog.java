package io.grove.server.state;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Where the daemon's durable state goes: the local {@link Journal} (one machine), or
 * {@link ZkStateLog} on ZooKeeper (high availability). A change is acknowledged once its event is
 * durable there; {@link #compact} replaces what is stored with a snapshot of the live state.
 */
public interface StateLog extends AutoCloseable {

    /** The events read when the log was opened, oldest first: a snapshot and what followed it. */
    List<JournalEvent> recovered();

    /** Records stored now (approximately, while appends are queued). */
    long records();

    /** Queues an event; the future completes once it is durable, or fails if it cannot be. */
    CompletableFuture<Void> append(JournalEvent event);

    /**
     * Queues an event nobody waits for (a job's start or end), written in order with the others:
     * durable with the next awaited event or within {@value QueuedStateLog#SYNC_INTERVAL_MS} ms,
     * without a sync of its own. Dropped, like a failed append, once the log is closed.
     */
    void record(JournalEvent event);

    /** Replaces what is stored with {@code snapshot}, after everything queued before it. */
    default CompletableFuture<Void> compact(List<JournalEvent> snapshot) {
        List<JournalEvent> events = List.copyOf(snapshot);
        return compact(() -> events);
    }

    /**
     * Like {@link #compact(List)}, with the events made on the log's own thread: the caller captures
     * what it needs from its live state cheaply and the supplier turns that into events.
     */
    CompletableFuture<Void> compact(Supplier<List<JournalEvent>> snapshot);

    /**
     * A future that completes once everything queued before it is durable (fails if a write before
     * it failed and none succeeded since).
     */
    CompletableFuture<Void> durable();

    /** Why the last write failed, while none succeeded since; {@code null} when writes succeed. */
    default String writeFailure() {
        return null;
    }

    /**
     * Whether what is stored was lost under the daemon (the journal file deleted or replaced): no
     * write is acknowledged until a {@link #compact} writes the live state afresh.
     */
    default boolean needsSnapshot() {
        return false;
    }

    @Override
    void close();
}
