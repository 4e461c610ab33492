package io.grove.agent.broker;

import java.util.Comparator;
import java.util.TreeSet;

/**
 * A queue's state: its waiting tasks in order (priority, then submission), what its running tasks
 * hold, and its real and planned consumption. Both consumptions are kept divided by the weight, so
 * queues compare by {@code max(real, planned)} directly. Owned by {@link ResourceBroker}.
 */
final class TaskQueue {

    static final Comparator<BrokerTask> ORDER = Comparator.<BrokerTask>comparingLong(t -> t.priority)
            .thenComparingLong(t -> t.submittedAt)
            .thenComparingLong(t -> t.sequence);

    final String name;
    final long weight;
    final BrokerResources limit;
    final TreeSet<BrokerTask> waiting = new TreeSet<>(ORDER);
    final Counters counters;
    BrokerResources used = BrokerResources.ZERO;
    int inFly;
    /** {@code C_R / Weight}: the time integral of the dominant share of what its tasks hold, share·ms. */
    double real;
    /**
     * {@code C_P / Weight}: finished tasks by their actual time plus running tasks by their planned
     * time, each times its dominant share; share·ms.
     */
    double planned;
    long realUpdatedAt;

    TaskQueue(QueueConfig config, Counters counters, long now) {
        this.name = config.name();
        this.weight = config.weight();
        this.limit = config.limit();
        this.counters = counters;
        this.realUpdatedAt = now;
    }

    boolean active() {
        return inFly > 0 || !waiting.isEmpty();
    }

    /** The key queues are chosen by, lowest first: {@code max(C_R, C_P) / Weight}. */
    double usage() {
        return Math.max(real, planned);
    }

    /** Adds the consumption of the running tasks since the last update. */
    void updateReal(long now, BrokerResources total) {
        long elapsed = now - realUpdatedAt;
        if (elapsed > 0) {
            real += used.dominantShare(total) * elapsed / weight;
        }
        realUpdatedAt = Math.max(realUpdatedAt, now);
    }

    /** A task starts running: its dominant share times its planned duration is added to the plan. */
    void startPlanned(BrokerTask task, long now, BrokerResources total) {
        planned += task.resources.dominantShare(total) * (task.plannedEnd - now) / weight;
    }

    /**
     * A running task leaves: its planned remainder is replaced by what actually happened, so a
     * finished task counts by its actual time ({@code plannedEnd - now} is negative when it
     * overran its plan).
     */
    void endPlanned(BrokerTask task, long now, BrokerResources total) {
        planned -= task.resources.dominantShare(total) * (task.plannedEnd - now) / weight;
    }
}
