package io.grove.server;

import io.grove.core.cluster.Cluster;
import io.grove.server.net.NodeAddresses;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Starts new work without waiting for periods. When a submission is made the fair shares are
 * updated at once rather than at the next period — for trees whose update is cheap — and after
 * each update that made operations schedulable, the nodes with room for them are asked to
 * heartbeat now ({@code heartbeat_now}), instead of at their next period. Their heartbeats are
 * decided as any other: the same published fair shares, limits and preemption.
 */
final class WorkArrival implements Runnable {

    /** An update that takes longer than this (a large tree) is not run early: it waits for its period. */
    static final long CHEAP_UPDATE_NANOS = Duration.ofMillis(10).toNanos();

    /** The most nodes asked to heartbeat after one update. */
    static final int MAX_NUDGES = 64;

    private final NodeAddresses addresses;
    private final AtomicBoolean pending = new AtomicBoolean();
    /** How long the last update took; unknown (so no early update) before the first. */
    private volatile long lastUpdateNanos = Long.MAX_VALUE;
    private volatile Executor executor;
    private volatile Runnable update;

    WorkArrival(NodeAddresses addresses) {
        this.addresses = addresses;
    }

    /** Where early updates run, and what they run. */
    void bind(Executor executor, Runnable update) {
        this.executor = executor;
        this.update = update;
    }

    /** Work arrived (a submission was made): an update soon, at most one waiting at a time. */
    @Override
    public void run() {
        Executor runOn = executor;
        Runnable task = update;
        if (runOn == null || task == null || lastUpdateNanos > CHEAP_UPDATE_NANOS || !pending.compareAndSet(false, true)) {
            return;
        }
        try {
            runOn.execute(() -> {
                pending.set(false);
                task.run();
            });
        } catch (RejectedExecutionException stopping) {
            pending.set(false);
        }
    }

    /** An update computed its trees in {@code nanos}. */
    void updated(long nanos) {
        lastUpdateNanos = nanos;
    }

    /** After an update is published, on the scheduler's thread: the nodes with room for new work heartbeat now. */
    void nudge(Cluster cluster, Instant now) {
        List<String> nodes = cluster.nodesForNewWork(now, Duration.ZERO, MAX_NUDGES);
        if (!nodes.isEmpty()) {
            addresses.nudge(nodes);
        }
        nudgeAsked(cluster);
    }

    /**
     * On the scheduler's thread: the nodes a gang's plan just gave ranks, and those with jobs to stop
     * (a restarting gang's ranks, jobs past their time limit), heartbeat now — every rank of a plan
     * starts in the same turn.
     */
    void nudgeAsked(Cluster cluster) {
        List<String> nodes = cluster.takeNudges();
        if (!nodes.isEmpty()) {
            addresses.nudge(nodes);
        }
    }
}
