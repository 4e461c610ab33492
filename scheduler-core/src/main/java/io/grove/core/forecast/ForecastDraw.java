package io.grove.core.forecast;

import io.grove.core.cluster.Cluster;
import io.grove.core.operation.Job;
import io.grove.core.operation.Operation;
import io.grove.core.operation.OperationDependencies;
import io.grove.core.operation.SubmitException;
import io.grove.core.pool.PoolPause;
import io.grove.core.schedule.Decision;
import io.grove.core.schedule.Heartbeat;
import io.grove.core.sim.SimNode;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.DoubleSupplier;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * One draw of a forecast: a copy of the cluster made from the snapshot (its operations, running
 * jobs with drawn ends, integral volumes, starvation clocks, pauses and gang reservations), then run
 * at the daemon's {@link Cadence}: a node heartbeats when a job of its ends (or is killed), every
 * node once a period while things happen, and the copy jumps to the next job end, starvation,
 * reservation, preemptive pass or arrival — until every operation waited for has started (or,
 * {@code untilLast}, started its last job), nothing can change any more, or the horizon passed.
 */
final class ForecastDraw {

    private final ForecastSnapshot snapshot;
    private final SplittableRandom random;
    private final Cluster copy;
    private final Map<String, SimNode> nodes = new LinkedHashMap<>();
    private final Map<String, ForecastSnapshot.OperationState> byId = new LinkedHashMap<>();
    /** What is drawn once per task of an operation. */
    private final TaskDraws perTask;
    /** How much of its grace a job told to stop gracefully takes, a draw at a time. */
    private final DoubleSupplier graceTaken;
    /** Per operation waited for: when its next job started and when its last one did. */
    private final Map<String, Instant[]> starts = new LinkedHashMap<>();
    private final Set<String> waiting = new LinkedHashSet<>();
    private final Function<Decision.JobStart, Duration> durationOf;
    private Arrivals.Stream coming;
    /** Whether the last round of heartbeats preempted or offered to: preemption may go on at the next pass. */
    private boolean preempting;
    /** Whether the last round of heartbeats started a job. */
    private boolean started;
    /** When every node last heartbeated and fair shares were updated. */
    private Instant lastFull;
    /** While preemption takes room: the next preemptive pass it waits for. */
    private Instant passDue;
    /** Whether the next look is due to a starvation, reservation, pass or arrival: every node heartbeats then. */
    private boolean fullDue;
    private int arrived;
    /** Running jobs whose end cannot be told (no duration known, no time limit), by operation: their tasks. */
    private final Map<String, Set<String>> endless = new LinkedHashMap<>();
    /** Whether a tree has integral guarantees, whose volumes move fair shares as time passes. */
    private final boolean integral;
    /** Operations that wait for others ({@code depends_on}): one released by an end starts at the next period. */
    private final Set<String> held = new LinkedHashSet<>();

    /**
     * What one draw found: per operation waited for, when its next job started and when its last
     * one did ({@code null}: not within the horizon); the operations (and tasks) with jobs that ran
     * without an end that can be told; and whether it stopped because nothing could change any more
     * (every job left runs without a known end, nothing starves, nothing arrives).
     */
    record Run(Map<String, Instant[]> starts, Map<String, Set<String>> endless, boolean frozen) {
    }

    private ForecastDraw(ForecastSnapshot snapshot, SplittableRandom random) {
        this.snapshot = snapshot;
        this.random = random;
        this.perTask = new TaskDraws(random);
        this.graceTaken = snapshot.durations().graceTaken(random);
        this.copy = new Cluster(snapshot.config(), snapshot.settings());
        this.integral = snapshot.trees().values().stream().anyMatch(tree -> !tree.integral().isEmpty());
        this.durationOf = start -> {
            ForecastSnapshot.OperationState operation = byId.get(start.operationId());
            Long millis = operation == null ? null
                    : StartForecast.draw(snapshot, operation, start.task(), perTask, random);
            Duration limit = limit(start.operationId(), start.task(), null);
            if (limit == null && millis == null) {
                endless.computeIfAbsent(start.operationId(), id -> new LinkedHashSet<>()).add(start.task());
            }
            if (limit != null && millis == null) {
                // no duration known, a limit: it ends any time before it
                double within = perTask.fraction(TaskDraws.Range.WITHIN_LIMIT, start.operationId(), start.task());
                return Duration.ofMillis(Math.max(1, Math.round(limit.toMillis() * within)));
            }
            // a drawn run past its limit is stopped at the limit, with its grace, by the copy as by the daemon
            return millis == null ? null : Duration.ofMillis(millis);
        };
    }

    /**
     * One draw of every operation (or only {@code target}); {@code null} when the deadline of
     * {@code ticker} passed.
     */
    static Run run(ForecastSnapshot snapshot, String target, SplittableRandom random,
            LongSupplier ticker, long deadline, boolean untilLast, boolean busy) {
        return run(snapshot, target, random, ticker, deadline, untilLast, busy, Set.of());
    }

    /** As above, not waiting for the operations {@code stuck} (they start in no draw). */
    static Run run(ForecastSnapshot snapshot, String target, SplittableRandom random,
            LongSupplier ticker, long deadline, boolean untilLast, boolean busy, Set<String> stuck) {
        ForecastDraw draw = new ForecastDraw(snapshot, random);
        Instant now = snapshot.now();
        draw.restore(now);
        draw.await(target);
        draw.waiting.removeAll(stuck);
        draw.coming = busy ? snapshot.arrivals().start(now, random) : null;
        Instant t = now;
        Instant end = now.plus(StartForecast.HORIZON);
        boolean frozen = false;
        while (t.isBefore(end) && !draw.waiting.isEmpty()) {
            if (ticker.getAsLong() - deadline > 0) {
                return null;
            }
            draw.arrive(t);
            // fair shares are updated, and every node heartbeats, once a period; a node whose job ended
            // heartbeats at once, as an agent does to report it
            boolean full = draw.lastFull == null || draw.fullDue
                    || !t.isBefore(draw.lastFull.plus(snapshot.cadence().heartbeat()));
            if (full) {
                StartForecast.update(draw.copy, t);
                draw.copy.ahead().keepUp(t);
                draw.lastFull = t;
            }
            draw.beat(t, full);
            draw.settle(t, untilLast);
            if (draw.waiting.isEmpty()) {
                break;
            }
            Instant next = draw.next(t);
            if (next == null) {
                frozen = true;
                break;
            }
            t = next;
        }
        return new Run(draw.starts, draw.endless, frozen);
    }

    /** The copy as the snapshot has it, its nodes having reported their running jobs. */
    private void restore(Instant now) {
        for (ForecastSnapshot.NodeState node : snapshot.nodes()) {
            if (node.online()) {
                // a job interrupted gracefully takes as much of its grace as the jobs seen to stop did
                nodes.put(node.id(), new SimNode(node.id(), node.tags(), node.limits()).withTopology(node.topology())
                        .withGraceTaken(graceTaken));
            }
            if (node.drain() != null) {
                copy.drains().drain(node.drain());   // held until the node reports, as the daemon holds it
            }
        }
        for (ForecastSnapshot.OperationState operation : snapshot.operations()) {
            byId.put(operation.id(), operation);
            if (!operation.spec().dependsOn().isEmpty()) {
                held.add(operation.id());
            }
            copy.registry().restoreSubmitted(operation.id(), operation.spec(), operation.user(), operation.submitted(),
                    operation.key());
            copy.registry().restoreProgress(operation.id(), operation.progress());
            for (ForecastSnapshot.JobState job : operation.running()) {
                Job restored = copy.revival().restoreRunningJob(operation.id(), job.jobId(), job.task(), job.index(),
                        job.attempt(), job.nodeId(), job.tree(), job.started(), job.startedByPreempting(),
                        job.preemptorFairShare(), now);
                if (operation.spec().gang()) {
                    // the copy has no ended attempts: the gang's wait is the daemon's
                    restored.waitedFrom(job.started().minusMillis(job.gangWaitMs()));
                }
                SimNode node = nodes.get(job.nodeId());
                if (node != null) {
                    Instant ends = StartForecast.ends(snapshot, operation, job.task(), job.started(), now, perTask,
                            random);
                    Duration limit = limit(operation.id(), job.task(), job.tree());
                    if (ends == null && limit != null && job.started().plus(limit).isAfter(now.plus(StartForecast.STEP))) {
                        // no duration known, a limit: it ends any time before it
                        long left = Duration.between(now, job.started().plus(limit)).toMillis();
                        ends = now.plusMillis(Math.max(StartForecast.STEP.toMillis(),
                                Math.round(left * perTask.fraction(TaskDraws.Range.WITHIN_LIMIT, operation.id(), job.task()))));
                    } else if (limit != null && ends == null) {
                        // past its limit: being stopped
                        ends = now.plus(StartForecast.STEP);
                    }
                    // a drawn end past its limit is left: the copy stops the job at its limit, with its grace
                    Heartbeat.Outcome outcome = Heartbeat.Outcome.COMPLETED;
                    if (job.stopsBy() != null) {
                        // being stopped (its gang restarts, its limit passed): it is killed by the end of its
                        // grace unless it ends before, and is not told again
                        copy.registry().markInterrupting(job.jobId(), job.stopsBy());
                        Instant by = job.stopsBy().isAfter(now)
                                ? now.plusMillis(Math.round(Duration.between(now, job.stopsBy()).toMillis() * graceTaken.getAsDouble()))
                                : now.plus(StartForecast.STEP);
                        if (ends == null || !ends.isBefore(by)) {
                            ends = by;
                            outcome = Heartbeat.Outcome.ABORTED;
                        }
                    }
                    if (ends == null) {
                        endless.computeIfAbsent(operation.id(), id -> new LinkedHashSet<>()).add(job.task());
                    }
                    node.adopt(new SimNode.RunningJob(job.jobId(), operation.id(), job.task(), job.index(),
                            operation.spec().tasks().get(job.task()).jobResources(), ends, outcome));
                }
            }
        }
        snapshot.trees().forEach((tree, memory) -> {
            copy.revival().restoreIntegralState(tree, memory.integral());
            copy.revival().restoreBelowFairShare(tree, memory.belowFairShare());
            memory.reservations().forEach(copy.revival()::restoreReservation);
            copy.revival().restoreGangsStarving(tree, memory.gangsStarving());
        });
        for (PoolPause pause : snapshot.pauses()) {
            try {
                copy.pause(pause);
            } catch (IllegalArgumentException gone) {
                // its pool left the configuration
            }
        }
        for (SimNode node : nodes.values()) {
            copy.report(node.heartbeat(), now);
        }
    }

    /**
     * How long a job of an operation's task may run in {@code tree} (its first tree for
     * {@code null}), or {@code null}: a job's time limit bounds its end.
     */
    private Duration limit(String operationId, String task, String tree) {
        Operation operation = copy.registry().operation(operationId);
        if (operation == null) {
            return null;
        }
        String in = tree != null ? tree : operation.poolByTree().keySet().iterator().next();
        return operation.timeLimit(in, operation.position(operation.spec().tasks().get(task)));
    }

    /** The operations to wait for: {@code target} (or every one) with jobs pending. */
    private void await(String target) {
        for (ForecastSnapshot.OperationState operation : snapshot.operations()) {
            Operation copied = copy.registry().operation(operation.id());
            if ((target == null || target.equals(operation.id())) && copied != null && copied.pendingJobCount() > 0) {
                waiting.add(operation.id());
            }
        }
    }

    /** Submits the drawn arrivals due by {@code t}. */
    private void arrive(Instant t) {
        while (coming != null && coming.next() != null && !coming.next().isAfter(t)) {
            Arrivals.Seen arrival = coming.take();
            String id = "arrival-" + ++arrived;
            try {
                copy.submit(id, arrival.spec(), arrival.user(), t);
                byId.put(id, new ForecastSnapshot.OperationState(id, arrival.spec(), arrival.user(), arrival.pool(), t,
                        null, null, List.of()));
            } catch (SubmitException refused) {
                // over a limit, as it would be
            }
        }
    }

    /**
     * Every node heartbeats ({@code full}), or only those whose jobs ended by {@code t}; the first
     * start of each operation waited for is kept.
     */
    private void beat(Instant t, boolean full) {
        if (full) {
            preempting = false;
            started = false;
        }
        for (SimNode node : nodes.values()) {
            if (!full) {
                Instant ends = node.nextEnd();
                if (ends == null || ends.isAfter(t)) {
                    continue;
                }
            }
            Decision decision = beat(node, t);
            if (decision.aborts().size() + decision.preemptions().size() > 0) {
                // a job killed here is reported at once (its agent heartbeats as it ends): its room is taken then
                beat(node, t);
            }
        }
        for (Iterator<String> it = held.iterator(); it.hasNext();) {
            Operation operation = copy.registry().operation(it.next());
            if (operation == null || operation.state().isFinished()
                    || OperationDependencies.waitingFor(operation, copy.registry()) == null) {
                it.remove();
                started = true;   // what it waited for ended: the next update takes it in
            }
        }
    }

    /** One heartbeat of a node: what it decided, the first start of each operation waited for kept. */
    private Decision beat(SimNode node, Instant t) {
        Decision decision = node.beatEach(copy, t, durationOf);
        // an offer of nothing (no job there may be taken) is no preemption going on
        preempting |= !decision.preemptions().isEmpty()
                || decision.offers().stream().anyMatch(offer -> Double.isFinite(offer.cost()));
        started |= !decision.starts().isEmpty();
        for (Decision.JobStart start : decision.starts()) {
            if (waiting.contains(start.operationId())) {
                Instant[] seen = starts.computeIfAbsent(start.operationId(), id -> new Instant[2]);
                if (seen[0] == null) {
                    seen[0] = t;
                }
            }
        }
        return decision;
    }

    /** Stops waiting for operations that started (their last job, {@code untilLast}) or finished. */
    private void settle(Instant t, boolean untilLast) {
        for (Iterator<String> it = waiting.iterator(); it.hasNext();) {
            String id = it.next();
            Instant[] seen = starts.get(id);
            Operation operation = copy.registry().operation(id);
            boolean done = operation == null || operation.state().isFinished()
                    || seen != null && (!untilLast || operation.pendingJobCount() == 0);
            if (done) {
                if (seen != null && untilLast) {
                    seen[1] = t;
                }
                it.remove();
            }
        }
    }

    /**
     * When to look next: the next job end (its node heartbeats then), and while things happen the
     * next period's heartbeats of every node; else nothing changes before the next job end,
     * starvation, reservation or arrival, since every node heartbeated and took what it could
     * ({@code MAX_JUMP} at most). {@code null} when nothing can change any more: the last round
     * started and preempted nothing, no job left has an end that can be told, nothing starves or
     * arrives, and no tree's integral guarantees move fair shares with time.
     */
    private Instant next(Instant t) {
        Cadence cadence = snapshot.cadence();
        Instant timed = null;
        Instant starves = copy.ahead().nextStarvation(t);
        if (starves != null) {
            // the next update sees it starving (within a period of it), then a node's heartbeat preempts
            // (within a period of that)
            timed = starves.plusMillis(random.nextLong(Math.max(1, cadence.update().toMillis())))
                    .plusMillis(random.nextLong(Math.max(1, cadence.heartbeat().toMillis())));
        }
        timed = earlier(timed, copy.ahead().nextReservation(t));
        Instant limit = copy.ahead().nextTimeLimit();
        // the node checks (every heartbeat period) find it passed, and its node is asked to come now
        timed = earlier(timed, limit == null ? null : limit.isAfter(t) ? limit : t.plus(cadence.heartbeat()));
        if (preempting) {
            // preemption goes on a pass at a time, as the nodes' backoffs allow, not only when jobs end
            passDue = copy.ahead().nextPreemptivePass(t);
        } else if (passDue != null && !passDue.isAfter(lastFull)) {
            passDue = null;
        }
        timed = earlier(timed, passDue);
        if (coming != null) {
            timed = earlier(timed, coming.next());
        }
        Instant jump = timed;
        if (started) {
            // fair shares change with what started: the next period's update and heartbeats may start more
            jump = earlier(jump, lastFull.plus(cadence.heartbeat()));
        }
        for (SimNode node : nodes.values()) {
            jump = earlier(jump, node.nextEnd());
        }
        if (jump == null && !started && !integral) {
            return null;
        }
        Instant most = t.plus(StartForecast.MAX_JUMP);
        jump = jump == null || jump.isAfter(most) ? most : jump;
        Instant least = t.plusMillis(1);
        jump = jump.isAfter(least) ? jump : least;
        fullDue = timed != null && !timed.isAfter(jump);
        return jump;
    }

    private static Instant earlier(Instant a, Instant b) {
        return a == null ? b : b == null || a.isBefore(b) ? a : b;
    }
}
