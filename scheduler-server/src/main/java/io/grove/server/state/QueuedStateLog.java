package io.grove.server.state;

import io.grove.http.DaemonThreads;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What both state logs share: callers queue events and compactions, and one writer thread takes
 * everything queued at once and writes the appends between two compactions as one group (one
 * fsync, or one ZooKeeper record), in order. A subclass writes a group and a snapshot.
 */
abstract class QueuedStateLog implements StateLog {

    private static final Logger LOG = LoggerFactory.getLogger(QueuedStateLog.class);

    sealed interface Task {
    }

    /** An event to write; {@code done} is {@code null} when nobody waits for it ({@link #record}). */
    record Append(JournalEvent event, CompletableFuture<Void> done) implements Task {
    }

    record Compact(Supplier<List<JournalEvent>> snapshot, CompletableFuture<Void> done) implements Task {
    }

    /** Completes once what was queued before it is durable. */
    record Barrier(CompletableFuture<Void> done) implements Task {
    }

    record Stop() implements Task {
    }

    private final BlockingQueue<Task> queue = new LinkedBlockingQueue<>();
    private final String name;
    private final List<JournalEvent> recovered;
    private Thread writer;
    private volatile boolean closed;
    /** Records stored now; written by the writer thread only. */
    private volatile long records;

    QueuedStateLog(String name, List<JournalEvent> recovered) {
        this.name = name;
        this.recovered = recovered;
        this.records = recovered.size();
    }

    /** What the log held when it was opened, in order. */
    @Override
    public final List<JournalEvent> recovered() {
        return recovered;
    }

    /** Records stored now (approximately, while appends are queued). */
    @Override
    public final long records() {
        return records;
    }

    /** The writer stored {@code count} more records. */
    final void stored(int count) {
        records += count;
    }

    /** The writer replaced everything with a snapshot of {@code count} records. */
    final void restarted(int count) {
        records = count;
    }

    /** Starts the writer; call at the end of the subclass's constructor. */
    final void startWriter(String threadName) {
        writer = DaemonThreads.start(threadName, this::writeLoop);
    }

    /** Writes a group of appends and completes (or fails) their futures. */
    abstract void writeGroup(List<Append> group);

    /** Replaces what is stored with the snapshot's events. */
    abstract void compactTo(List<JournalEvent> snapshot) throws Exception;

    /** What a failed compaction reports (after logging it). */
    abstract Throwable compactionFailed(Exception e);

    /**
     * Whether writes are waiting for a sync nobody asked for yet: the writer then waits for more
     * work at most {@link #SYNC_INTERVAL_MS} before {@link #syncNow}. The journal's; none by default.
     */
    boolean unsynced() {
        return false;
    }

    /** Makes what was written durable (see {@link #unsynced}). */
    void syncNow() {
    }

    /** How long an event nobody waits for may stay written but not synced. */
    static final long SYNC_INTERVAL_MS = 50;

    /** Why the last write failed, while no write succeeded since; {@code null} when writes succeed. */
    private volatile String writeFailure;

    @Override
    public final String writeFailure() {
        return writeFailure;
    }

    /** Completes the futures of a group written durably (events nobody waits for have none). */
    final void completed(List<Append> group) {
        writeFailure = null;
        for (Append append : group) {
            if (append.done() != null) {
                append.done().complete(null);
            }
        }
    }

    /** Fails the futures of a group that could not be written. */
    final void failed(List<Append> group, Throwable failure) {
        writeFailure = String.valueOf(failure.getMessage());
        failedQuietly(group, failure);
    }

    private static void failedQuietly(List<Append> group, Throwable failure) {
        for (Append append : group) {
            if (append.done() != null) {
                append.done().completeExceptionally(failure);
            }
        }
    }

    /** Whether anyone waits for an event of the group. */
    static boolean awaited(List<Append> group) {
        for (Append append : group) {
            if (append.done() != null) {
                return true;
            }
        }
        return false;
    }

    /** Why an append is refused before it is queued, or {@code null}. */
    RuntimeException refusal() {
        return closed ? new IllegalStateException("the " + name + " is closed") : null;
    }

    /**
     * Held while a task is checked and queued, and while the log closes: a task is either queued
     * before the stop (and written) or refused, never queued after the writer has gone.
     */
    private final Object gate = new Object();

    /** Queues {@code task} unless the log refuses it; returns the refusal, or {@code null}. */
    private RuntimeException offer(Task task) {
        synchronized (gate) {
            RuntimeException refused = refusal();
            if (refused == null) {
                queue.add(task);
            }
            return refused;
        }
    }

    @Override
    public CompletableFuture<Void> append(JournalEvent event) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        RuntimeException refused = offer(new Append(event, done));
        if (refused != null) {
            done.completeExceptionally(refused);
        }
        return done;
    }

    @Override
    public void record(JournalEvent event) {
        offer(new Append(event, null));
    }

    @Override
    public CompletableFuture<Void> compact(Supplier<List<JournalEvent>> snapshot) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        RuntimeException refused = offer(new Compact(snapshot, done));
        if (refused != null) {
            done.completeExceptionally(refused);
        }
        return done;
    }

    @Override
    public CompletableFuture<Void> durable() {
        CompletableFuture<Void> done = new CompletableFuture<>();
        RuntimeException refused = offer(new Barrier(done));
        if (refused != null) {
            done.completeExceptionally(refused);
        }
        return done;
    }

    private void writeLoop() {
        List<Task> batch = new ArrayList<>();
        while (true) {
            try {
                Task first = unsynced() ? queue.poll(SYNC_INTERVAL_MS, TimeUnit.MILLISECONDS) : queue.take();
                if (first == null) {
                    syncNow();
                    continue;
                }
                batch.add(first);
                queue.drainTo(batch);
                boolean stop = runBatch(batch);
                batch.clear();
                if (stop) {
                    if (unsynced()) {
                        syncNow();
                    }
                    failQueued();
                    return;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                failQueued();
                return;
            } catch (RuntimeException | Error e) {
                // nothing may kill the writer: whatever of the batch is left fails with the cause, and it goes on
                LOG.error("the {}'s writer failed on a batch of {} task(s); they fail and it goes on", name, batch.size(), e);
                fail(batch, e);
                batch.clear();
            }
        }
    }

    /** Fails every task of {@code tasks} whose future is not complete yet. */
    private void fail(List<Task> tasks, Throwable cause) {
        writeFailure = String.valueOf(cause.getMessage());
        for (Task task : tasks) {
            if (task instanceof Append append && append.done() != null) {
                append.done().completeExceptionally(cause);
            } else if (task instanceof Compact compact) {
                compact.done().completeExceptionally(cause);
            } else if (task instanceof Barrier barrier) {
                barrier.done().completeExceptionally(cause);
            }
        }
    }

    /** Writes appends in groups with compactions between them; true on a stop (what follows it fails). */
    private boolean runBatch(List<Task> batch) {
        List<Append> group = new ArrayList<>();
        for (int i = 0; i < batch.size(); i++) {
            Task task = batch.get(i);
            if (task instanceof Append append) {
                group.add(append);
                continue;
            }
            flush(group);
            if (task instanceof Compact compact) {
                try {
                    compactTo(compact.snapshot().get());
                    compact.done().complete(null);
                } catch (Exception e) {
                    compact.done().completeExceptionally(compactionFailed(e));
                }
            } else if (task instanceof Barrier barrier) {
                if (unsynced()) {
                    syncNow();
                }
                String failure = writeFailure;
                if (failure == null) {
                    barrier.done().complete(null);
                } else {
                    barrier.done().completeExceptionally(new IllegalStateException("the " + name + " cannot write: "
                            + failure));
                }
            } else {
                fail(batch.subList(i + 1, batch.size()), new IllegalStateException("the " + name + " is closed"));
                return true;
            }
        }
        flush(group);
        return false;
    }

    /** Writes a group; one that throws (an event that cannot be encoded, a store that fails oddly) fails alone. */
    private void flush(List<Append> group) {
        if (!group.isEmpty()) {
            List<Append> written = List.copyOf(group);
            group.clear();
            try {
                writeGroup(written);
            } catch (RuntimeException e) {
                LOG.error("the {} could not write {} event(s)", name, written.size(), e);
                failed(written, e);
            }
        }
    }

    private void failQueued() {
        IllegalStateException closedError = new IllegalStateException("the " + name + " is closed");
        for (Task task = queue.poll(); task != null; task = queue.poll()) {
            if (task instanceof Append append) {
                failedQuietly(List.of(append), closedError);
            } else if (task instanceof Compact compact) {
                compact.done().completeExceptionally(closedError);
            } else if (task instanceof Barrier barrier) {
                barrier.done().completeExceptionally(closedError);
            }
        }
    }

    /** Stops after what is queued (it is written); later appends fail. */
    @Override
    public void close() {
        synchronized (gate) {
            if (closed) {
                return;
            }
            closed = true;
            queue.add(new Stop());
        }
        try {
            writer.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        afterClose();
    }

    /** What the subclass closes once the writer has stopped. */
    void afterClose() {
    }
}
