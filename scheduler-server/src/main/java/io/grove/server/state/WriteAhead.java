package io.grove.server.state;

import io.grove.core.cluster.Cluster;
import io.grove.core.operation.Job;
import io.grove.http.Futures;
import io.grove.server.loop.SchedulerLoop;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Changes written ahead: a user's change (a submission, an abort) takes effect only once its record
 * is durable. On the scheduler's thread the change is checked and its record queued (a submission's
 * operation is held meanwhile: it keeps its place but nothing of it runs); once the write ends,
 * again on the scheduler's thread, the change is applied, or undone without a trace when the
 * write failed ({@link NotWritten}).
 *
 * <p>A snapshot taken while records are in flight holds the state without them; the log's writer,
 * which writes the snapshot after those records, adds each one that was written
 * ({@link #withInFlight}). So a compaction neither loses an acknowledged change nor keeps a refused one.
 */
public final class WriteAhead {

    /** A change whose record could not be written, or may not have been ({@link #unknown}): it was not made here. */
    public static final class NotWritten extends RuntimeException {
        public NotWritten(Throwable cause) {
            super(String.valueOf(cause.getMessage()), cause);
        }

        /** Whether the record may have been written all the same (a store whose connection was lost). */
        public boolean unknown() {
            return getCause() instanceof OutcomeUnknown;
        }
    }

    /** A write whose outcome is unknown: the store may have it. */
    public static final class OutcomeUnknown extends IllegalStateException {
        public OutcomeUnknown(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private record InFlight(JournalEvent event, CompletableFuture<Void> durable) {
        boolean written() {
            return durable.isDone() && !durable.isCompletedExceptionally();
        }
    }

    private final StateLog log;
    private final SchedulerLoop loop;
    /** Records queued and not yet applied or undone; the scheduler thread's alone. */
    private final List<InFlight> inFlight = new ArrayList<>();

    public WriteAhead(StateLog log, SchedulerLoop loop) {
        this.log = log;
        this.loop = loop;
    }

    /**
     * On the scheduler's thread, after the change is checked: queues {@code event}; then, on the
     * scheduler's thread, {@code apply} once it is durable (the future completes with its result),
     * or {@code undo} if it is not (the future fails with {@link NotWritten}).
     */
    public <T> CompletableFuture<T> write(JournalEvent event, Function<Cluster, T> apply, Consumer<Cluster> undo) {
        InFlight entry = new InFlight(event, log.append(event));
        inFlight.add(entry);
        return entry.durable().handle((ok, failure) -> failure).thenCompose(failure -> loop.call(cluster -> {
            inFlight.remove(entry);
            if (failure != null) {
                undo.accept(cluster);
                throw new NotWritten(Futures.cause(failure));
            }
            return apply.apply(cluster);
        }));
    }

    /**
     * On the scheduler's thread, with a snapshot of the state just captured: the snapshot's events,
     * made on the log's writer, followed by the records in flight now that were written. The
     * snapshot stays as it is read, an event at a time with its running jobs written from the jobs
     * ({@link Revival.RunningJobs}): a copy of it would hold every event of a snapshot of hundreds
     * of thousands of jobs at once, and a young collection during the write would copy them all.
     */
    public Supplier<List<JournalEvent>> withInFlight(Supplier<List<JournalEvent>> snapshot) {
        List<InFlight> pending = List.copyOf(inFlight);
        return () -> {
            List<JournalEvent> written = new ArrayList<>();
            for (InFlight entry : pending) {
                if (entry.written()) {
                    written.add(entry.event());
                }
            }
            List<JournalEvent> events = snapshot.get();
            return written.isEmpty() ? events : new FollowedBy(events, written);
        };
    }

    /** A snapshot's events, then more, read through: the snapshot's running jobs stay jobs. */
    static final class FollowedBy extends AbstractList<JournalEvent> implements Revival.RunningJobs {
        private final List<JournalEvent> first;
        private final List<JournalEvent> then;

        FollowedBy(List<JournalEvent> first, List<JournalEvent> then) {
            this.first = first;
            this.then = then;
        }

        @Override
        public JournalEvent get(int index) {
            return index < first.size() ? first.get(index) : then.get(index - first.size());
        }

        @Override
        public Job runningJob(int index) {
            return index < first.size() && first instanceof Revival.RunningJobs jobs ? jobs.runningJob(index) : null;
        }

        @Override
        public int size() {
            return first.size() + then.size();
        }
    }
}
