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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Hands heartbeats to the scheduler thread in batches: the heartbeats waiting when the thread gets
 * to them are decided in one turn, and the answers go back to each network thread in one task (so
 * a thousand replies cost a few cross-thread wake-ups, not a thousand). A turn takes at most
 * {@link #MAX_BATCH} heartbeats and then sends its answers: after a stall, when thousands wait and
 * more keep coming, answers go out as the backlog is worked off instead of all at its end, and the
 * loop's other work gets its turn in between.
 *
 * <p>A heartbeat is of a node registered by its connection's handshake. One whose node the
 * scheduler has declared lost since is refused ({@link NodeLost}), not taken as a registration: a
 * partition can deliver a node's old frames after its jobs were ended and run again elsewhere.
 *
 * <p>In a high-availability group a {@link Gate} holds the daemon to its lease: no heartbeat is
 * decided, and no answer sent, while the scheduler may not act as the leader ({@link NotLeading});
 * and answers that start jobs wait until the starts are durable, so that a new leader knows every
 * job a node may run.
 */
public final class HeartbeatBatcher {

    private record Pending(EventExecutor executor, Heartbeat heartbeat, Consumer<Decision> answer,
            Consumer<Throwable> failure) {
    }

    /** Heartbeats decided in one turn of the scheduler thread before their answers are sent. */
    static final int MAX_BATCH = 64;

    /**
     * What holds heartbeats back: {@code mayAct} is checked before a turn decides and again before
     * each answer goes out; {@code durable}, when not {@code null}, gives a future that completes
     * once everything written so far is durable.
     */
    public record Gate(BooleanSupplier mayAct, Supplier<CompletableFuture<Void>> durable) {
        /** A scheduler on its own: always acts, answers at once. */
        public static final Gate NONE = new Gate(() -> true, null);
    }

    /** A heartbeat refused because this scheduler may not act as the leader now. */
    public static final class NotLeading extends RuntimeException {
        public NotLeading() {
            super("this scheduler is not the leader now (its lease lapsed or it stepped down); try the others");
        }
    }

    /**
     * A heartbeat refused because the scheduler no longer knows its node: it was declared lost
     * (silent past the registration timeout) after the connection's handshake. Its jobs were ended
     * and run again elsewhere; the node must shake hands again and say what it still runs.
     */
    public static final class NodeLost extends RuntimeException {
        public NodeLost(String nodeId) {
            super("node " + nodeId + " was declared lost (silent past the registration timeout) and its jobs were "
                    + "ended; shake hands again");
        }
    }

    private final SchedulerLoop loop;
    private final Clock clock;
    private final Gate gate;
    private final ConcurrentLinkedQueue<Pending> queue = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean scheduled = new AtomicBoolean();
    /** Runs on the scheduler's thread after each turn that decided heartbeats (the gangs' nudges). */
    private volatile Consumer<Cluster> afterTurn = cluster -> { };

    public HeartbeatBatcher(SchedulerLoop loop, Clock clock) {
        this(loop, clock, Gate.NONE);
    }

    public HeartbeatBatcher(SchedulerLoop loop, Clock clock, Gate gate) {
        this.loop = loop;
        this.clock = clock;
        this.gate = gate;
    }

    /** What runs on the scheduler's thread after each turn of heartbeats. */
    public void afterTurn(Consumer<Cluster> hook) {
        this.afterTurn = hook;
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

    /** A heartbeat's outcome: its decision, or why it has none. */
    private record Outcome(Pending pending, Decision decision, Throwable error) {
    }

    private void drain(Cluster cluster) {
        scheduled.set(false);
        List<Outcome> outcomes = new ArrayList<>();
        Instant now = clock.now();
        boolean acting = gate.mayAct().getAsBoolean();
        boolean starts = false;
        Pending pending;
        for (int taken = 0; taken < MAX_BATCH && (pending = queue.poll()) != null; taken++) {
            if (!acting) {
                outcomes.add(new Outcome(pending, null, new NotLeading()));
                continue;
            }
            if (cluster.node(pending.heartbeat().nodeId()) == null) {
                // a late frame of a connection whose node was lost since its handshake: not a registration
                outcomes.add(new Outcome(pending, null, new NodeLost(pending.heartbeat().nodeId())));
                continue;
            }
            try {
                Decision decision = cluster.heartbeat(pending.heartbeat(), now);
                starts |= !decision.starts().isEmpty();
                outcomes.add(new Outcome(pending, decision, null));
            } catch (RuntimeException | Error e) {
                outcomes.add(new Outcome(pending, null, e));
            }
        }
        if (acting) {
            afterTurn.accept(cluster);
        }
        if (starts && gate.durable() != null) {
            // the starts go out once they are durable: a new leader then knows every job that may run
            gate.durable().get().whenComplete((written, error) -> send(outcomes, error));
        } else {
            send(outcomes, null);
        }
        if (!queue.isEmpty()) {
            schedule();
        }
    }

    /** Sends each answer on its connection's thread, checking the lease once more just before. */
    private void send(List<Outcome> outcomes, Throwable notDurable) {
        Map<EventExecutor, List<Outcome>> byExecutor = new IdentityHashMap<>();
        for (Outcome outcome : outcomes) {
            byExecutor.computeIfAbsent(outcome.pending().executor(), e -> new ArrayList<>()).add(outcome);
        }
        byExecutor.forEach((executor, batch) -> executor.execute(() -> {
            for (Outcome outcome : batch) {
                Throwable why = outcome.error() != null ? outcome.error() : notDurable;
                if (why == null && !gate.mayAct().getAsBoolean()) {
                    why = new NotLeading();
                }
                if (why != null) {
                    outcome.pending().failure().accept(why);
                } else {
                    outcome.pending().answer().accept(outcome.decision());
                }
            }
        }));
    }
}
