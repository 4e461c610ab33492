package io.grove.server.loop;

import io.grove.core.cluster.Cluster;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The one thread that owns the {@link Cluster}. Network handlers never touch the cluster: they
 * hand work to this loop and answer when the returned future completes, so they never block.
 */
public final class SchedulerLoop implements AutoCloseable {

    private final Cluster cluster;
    private final ExecutorService thread;

    public SchedulerLoop(Cluster cluster) {
        this.cluster = cluster;
        this.thread = Executors.newSingleThreadExecutor(runnable -> {
            Thread t = new Thread(runnable, "grove-scheduler");
            t.setDaemon(true);
            return t;
        });
    }

    /** Runs {@code work} on the loop; the future completes with its result or its exception. */
    public <T> CompletableFuture<T> call(Function<Cluster, T> work) {
        CompletableFuture<T> result = new CompletableFuture<>();
        try {
            thread.execute(() -> {
                try {
                    result.complete(work.apply(cluster));
                } catch (RuntimeException | Error e) {
                    result.completeExceptionally(e);
                }
            });
        } catch (RejectedExecutionException e) {
            result.completeExceptionally(new IllegalStateException("the scheduler is shutting down"));
        }
        return result;
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
