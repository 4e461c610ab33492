package io.grove.server.loop;

import io.grove.core.cluster.Cluster;
import io.grove.core.cluster.ClusterView;
import io.grove.http.DaemonThreads;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.PriorityBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * The one thread that owns the {@link Cluster}. Network handlers never touch the cluster: they
 * hand work to this loop and answer when the returned future completes, so they never block.
 * Work runs in the order it was handed over, except reads for users ({@link #read}): they run
 * only when no other work waits, so that no number of list and view requests delays a heartbeat
 * or a change by more than one read.
 */
public final class SchedulerLoop implements AutoCloseable {

    private final Cluster cluster;
    private final ThreadPoolExecutor thread;
    private final AtomicLong sequence = new AtomicLong();

    public SchedulerLoop(Cluster cluster) {
        this.cluster = cluster;
        this.thread = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new PriorityBlockingQueue<>(),
                DaemonThreads.named("grove-scheduler"));
    }

    /** Runs {@code work} on the loop; the future completes with its result or its exception. */
    public <T> CompletableFuture<T> call(Function<Cluster, T> work) {
        return submit(work, false);
    }

    /**
     * Runs a user's read on the loop once no other work waits (heartbeats, changes, updates go
     * first). A read sees the cluster through its read-only view.
     */
    public <T> CompletableFuture<T> read(Function<ClusterView, T> work) {
        return submit(work::apply, true);
    }

    private <T> CompletableFuture<T> submit(Function<Cluster, T> work, boolean read) {
        CompletableFuture<T> result = new CompletableFuture<>();
        try {
            thread.execute(new Task(read, sequence.incrementAndGet(), () -> {
                try {
                    result.complete(work.apply(cluster));
                } catch (RuntimeException | Error e) {
                    result.completeExceptionally(e);
                }
            }));
        } catch (RejectedExecutionException e) {
            result.completeExceptionally(new IllegalStateException("the scheduler is shutting down"));
        }
        return result;
    }

    /** Work in the loop's queue: reads after the rest, each kind in the order it came. */
    private record Task(boolean read, long sequence, Runnable work) implements Runnable, Comparable<Task> {
        @Override
        public void run() {
            work.run();
        }

        @Override
        public int compareTo(Task other) {
            if (read != other.read) {
                return read ? 1 : -1;
            }
            return Long.compare(sequence, other.sequence);
        }
    }

    @Override
    public void close() {
        thread.shutdown();
        try {
            if (!thread.awaitTermination(10, TimeUnit.SECONDS)) {
                thread.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            thread.shutdownNow();
        }
    }
}
