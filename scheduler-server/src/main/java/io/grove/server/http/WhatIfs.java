package io.grove.server.http;

import io.grove.api.ErrorDetails;
import io.grove.http.ApiException;
import io.grove.http.DaemonThreads;
import io.grove.http.Futures;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * What-ifs (a candidate pools file's fair shares) are heavy: a 1 MiB candidate is 60,000 pools.
 * So they are admitted here: at most {@code maxRunning} at once and one per user (more is
 * {@code 429}), each on a thread of this pool (never the scheduler's nor the network's), answered
 * within a deadline ({@code 503} beyond). A what-if holds its place until its work ends, even when
 * its answer timed out or its client left, so the work in flight stays bounded. Its threads end
 * after a minute idle.
 */
final class WhatIfs {

    private final int maxRunning;
    private final Duration deadline;
    private final ExecutorService threads;
    private final Set<String> users = new HashSet<>();

    WhatIfs(int maxRunning, Duration deadline) {
        this.maxRunning = maxRunning;
        this.deadline = deadline;
        ThreadPoolExecutor pool = new ThreadPoolExecutor(maxRunning, maxRunning, 1, TimeUnit.MINUTES,
                new LinkedBlockingQueue<>(), DaemonThreads.named("grove-what-if"));
        pool.allowCoreThreadTimeOut(true);
        this.threads = pool;
    }

    /**
     * Runs {@code work} (given the executor its pure steps run on) if there is room; its answer
     * fails with {@code 429} when there is none and {@code 503} past the deadline.
     */
    <T> CompletableFuture<T> run(String user, Function<ExecutorService, CompletableFuture<T>> work) {
        String who = user == null ? "" : user;
        synchronized (users) {
            if (users.contains(who)) {
                throw new ApiException(429, "TOO_MANY_WHAT_IFS", "a what-if of " + (who.isEmpty() ? "yours" : who)
                        + " is still running; one runs per user at a time", new ErrorDetails.MaxRunning(maxRunning));
            }
            if (users.size() >= maxRunning) {
                throw new ApiException(429, "TOO_MANY_WHAT_IFS", maxRunning + " what-ifs are running; try again shortly",
                        new ErrorDetails.MaxRunning(maxRunning));
            }
            users.add(who);
        }
        CompletableFuture<T> done;
        try {
            done = CompletableFuture.supplyAsync(() -> threads, threads).thenCompose(work);
        } catch (RuntimeException e) {
            release(who);
            throw e;
        }
        done.whenComplete((result, failure) -> release(who));
        return Futures.translate(done.copy().orTimeout(deadline.toMillis(), TimeUnit.MILLISECONDS),
                cause -> cause instanceof TimeoutException ? new ApiException(503, "WHAT_IF_TIMEOUT",
                        "the what-if did not finish within " + deadline.toSeconds() + " s",
                        new ErrorDetails.Deadline(deadline.toSeconds())) : null);
    }

    private void release(String who) {
        synchronized (users) {
            users.remove(who);
        }
    }

    /** What-ifs running now. */
    int running() {
        synchronized (users) {
            return users.size();
        }
    }
}
