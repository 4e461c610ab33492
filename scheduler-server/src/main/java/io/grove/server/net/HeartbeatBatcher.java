package io.grove.server.net;

import io.grove.core.cluster.Cluster;
import io.grove.core.schedule.Decision;
import io.grove.core.schedule.Heartbeat;
import io.grove.server.Clock;
import io.grove.server.loop.SchedulerLoop;
import io.netty.util.concurrent.EventExecutor;
import java.time.Instant;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Hands heartbeats to the scheduler thread in batches: the heartbeats waiting when the thread gets
 * to them are decided in one turn, and the answers go back to each network thread in one task (so
 * a thousand replies cost a few cross-thread wake-ups, not a thousand). A turn takes at most
 * {@link #MAX_BATCH} heartbeats and then sends its answers: after a stall, when thousands wait and
 * more keep coming, answers go out as the backlog is worked off instead of all at its end, and the
 * loop's other work gets its turn in between.
 */
public final class HeartbeatBatcher {

    private record Pending(EventExecutor executor, Heartbeat heartbeat, Consumer<Decision> answer,
            Consumer<Throwable> failure) {
    }

    /** Heartbeats decided in one turn of the scheduler thread before their answers are sent. */
    static final int MAX_BATCH = 64;

    private final SchedulerLoop loop;
    private final Clock clock;
    private final ConcurrentLinkedQueue<Pending> queue = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean scheduled = new AtomicBoolean();

    public HeartbeatBatcher(SchedulerLoop loop, Clock clock) {
        this.loop = loop;
        this.clock = clock;
    }

    /**
     * Queues a heartbeat; {@code answer} (or {@code failure}) runs on {@code executor}, the
     * connection's network thread, once it is decided.
     */
    public void submit(EventExecutor executor, Heartbeat heartbeat, Consumer<Decision> answer, Consumer<Throwable> failure) {
        queue.add(new Pending(executor, heartbeat, answer, failure));
        schedule();
    }

    private void schedule() {
        if (scheduled.compareAndSet(false, true)) {
            loop.call(cluster -> {
                drain(cluster);
                return null;
            }).whenComplete((done, error) -> {
                if (error != null) {
                    // the loop is shutting down: whatever is queued gets the error
                    scheduled.set(false);
                    for (Pending pending; (pending = queue.poll()) != null;) {
                        Pending failed = pending;
                        failed.executor().execute(() -> failed.failure().accept(error));
                    }
                }
            });
        }
    }

    private void drain(Cluster cluster) {
        scheduled.set(false);
        Map<EventExecutor, List<Runnable>> answers = new IdentityHashMap<>();
        Instant now = clock.now();
        Pending pending;
        for (int taken = 0; taken < MAX_BATCH && (pending = queue.poll()) != null; taken++) {
            Runnable answer;
            try {
                Decision decision = cluster.heartbeat(pending.heartbeat(), now);
                Pending done = pending;
                answer = () -> done.answer().accept(decision);
            } catch (RuntimeException | Error e) {
                Pending failed = pending;
                answer = () -> failed.failure().accept(e);
            }
            answers.computeIfAbsent(pending.executor(), e -> new ArrayList<>()).add(answer);
        }
        answers.forEach((executor, batch) -> executor.execute(() -> batch.forEach(Runnable::run)));
        if (!queue.isEmpty()) {
            schedule();
        }
    }
}
