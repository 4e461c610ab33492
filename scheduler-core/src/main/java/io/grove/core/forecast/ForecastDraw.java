package io.grove.core.forecast;

import io.grove.core.cluster.Cluster;
import io.grove.core.operation.Operation;
import io.grove.core.operation.SubmitException;
import io.grove.core.pool.PoolPause;
import io.grove.core.schedule.Decision;
import io.grove.core.schedule.Heartbeat;
import io.grove.core.sim.SimNode;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * One draw of a forecast: a copy of the cluster made from the snapshot (its operations, running
 * jobs with drawn ends, integral volumes, starvation clocks, pauses and gang reservations), then run
 * heartbeat by heartbeat, jumping to the next job end, starvation or reservation falling due — or,
 * while preemption takes room, to the next preemptive pass — until every operation waited for has started (or, {@code untilLast},
 * started its last job) or the horizon passed.
 */
final class ForecastDraw {

    private final ForecastSnapshot snapshot;
    private final SplittableRandom random;
    private final Cluster copy;
    private final Map<String, SimNode> nodes = new LinkedHashMap<>();
    private final Map<String, ForecastSnapshot.OperationState> byId = new LinkedHashMap<>();
    /** The duration drawn once per task of an operation. */
    private final Map<String, Long> drawnFor = new HashMap<>();
    /** Per operation waited for: when its next job started and when its last one did. */
    private final Map<String, Instant[]> starts = new LinkedHashMap<>();
    private final Set<String> waiting = new LinkedHashSet<>();
    private final Function<Decision.JobStart, Duration> durationOf;
    private Arrivals.Stream coming;
    /** Whether the last round of heartbeats preempted or offered to: preemption may go on at the next pass. */
    private boolean preempting;
    private int arrived;

    private ForecastDraw(ForecastSnapshot snapshot, SplittableRandom random) {
        this.snapshot = snapshot;
        this.random = random;
        this.copy = new Cluster(snapshot.config(), snapshot.settings());
        this.durationOf = start -> {
            ForecastSnapshot.OperationState operation = byId.get(start.operationId());
            Long millis = operation == null ? null
                    : StartForecast.draw(snapshot, operation, start.task(), drawnFor, random);
            Duration limit = limit(start.operationId(), start.task(), null);
            return limit != null && (millis == null || millis > limit.toMillis()) ? limit
                    : millis == null ? null : Duration.ofMillis(millis);
        };
    }

    /**
     * One draw: for each operation (or only {@code target}), when its next pending job starts and
     * when its last one does ({@code null}: not within the horizon); {@code null} when the deadline
     * of {@code ticker} passed.
     */
    static Map<String, Instant[]> run(ForecastSnapshot snapshot, String target, SplittableRandom random,
            LongSupplier ticker, long deadline, boolean untilLast, boolean busy) {
        ForecastDraw draw = new ForecastDraw(snapshot, random);
        Instant now = snapshot.now();
        draw.restore(now);
        draw.await(target);
        draw.coming = busy ? snapshot.arrivals().start(now, random) : null;
        Instant t = now;
        Instant end = now.plus(StartForecast.HORIZON);
        while (t.isBefore(end) && !draw.waiting.isEmpty()) {
            if (ticker.getAsLong() - deadline > 0) {
                return null;
            }
            draw.arrive(t);
            StartForecast.update(draw.copy, t);
            draw.copy.ahead().keepGangs(t);
            draw.beat(t);
            draw.settle(t, untilLast);
            if (draw.waiting.isEmpty()) {
                break;
            }
            t = draw.next(t);
        }
        return draw.starts;
    }

    /** The copy as the snapshot has it, its nodes having reported their running jobs. */
    private void restore(Instant now) {
        for (ForecastSnapshot.NodeState node : snapshot.nodes()) {
            if (node.online()) {
                nodes.put(node.id(), new SimNode(node.id(), node.tags(), node.limits()).withTopology(node.topology()));
            }
        }
        for (ForecastSnapshot.OperationState operation : snapshot.operations()) {
            byId.put(operation.id(), operation);
            copy.registry().restoreSubmitted(operation.id(), operation.spec(), operation.user(), operation.submitted(),
                    operation.key());
            copy.registry().restoreProgress(operation.id(), operation.progress());
            for (ForecastSnapshot.JobState job : operation.running()) {
                copy.revival().restoreRunningJob(operation.id(), job.jobId(), job.task(), job.index(), job.attempt(),
                        job.nodeId(), job.tree(), job.started(), job.startedByPreempting(), job.preemptorFairShare(),
                        now);
                SimNode node = nodes.get(job.nodeId());
                if (node != null) {
                    Instant ends = StartForecast.ends(snapshot, operation, job.task(), job.started(), now, drawnFor,
                            random);
                    Duration limit = limit(operation.id(), job.task(), job.tree());
                    if (limit != null && (ends == null || ends.isAfter(job.started().plus(limit)))) {
                        // stopped at its limit, as the daemon stops it
                        ends = job.started().plus(limit).isAfter(now) ? job.started().plus(limit) : now.plus(StartForecast.STEP);
                    }
                    Heartbeat.Outcome outcome = Heartbeat.Outcome.COMPLETED;
                    if (job.stopsBy() != null) {
                        // being stopped (its gang restarts, its limit passed): it is killed by the end of its
                        // grace unless it ends before, and is not told again
                        copy.registry().markInterrupting(job.jobId(), job.stopsBy());
                        Instant by = job.stopsBy().isAfter(now) ? job.stopsBy() : now.plus(StartForecast.STEP);
                        if (ends == null || !ends.isBefore(by)) {
                            ends = by;
                            outcome = Heartbeat.Outcome.ABORTED;
                        }
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

    /** Every node heartbeats; the first start of each operation waited for is kept. */
    private void beat(Instant t) {
        preempting = false;
        for (SimNode node : nodes.values()) {
            Decision decision = node.beatEach(copy, t, durationOf);
            // an offer of nothing (no job there may be taken) is no preemption going on
            preempting |= !decision.preemptions().isEmpty()
                    || decision.offers().stream().anyMatch(offer -> Double.isFinite(offer.cost()));
            for (Decision.JobStart started : decision.starts()) {
                if (waiting.contains(started.operationId())) {
                    Instant[] seen = starts.computeIfAbsent(started.operationId(), id -> new Instant[2]);
                    if (seen[0] == null) {
                        seen[0] = t;
                    }
                }
            }
        }
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
     * When to look next: nothing changes before the next job end, starvation or arrival, since every
     * node heartbeated and took what it could; a second at least, {@code MAX_JUMP} at most.
     */
    private Instant next(Instant t) {
        Instant jump = t.plus(StartForecast.MAX_JUMP);
        Instant starves = copy.ahead().nextStarvation(t);
        Instant reserves = copy.ahead().nextReservation(t);
        if (reserves != null && reserves.isBefore(jump)) {
            jump = reserves;
        }
        if (starves != null && starves.isBefore(jump)) {
            // one step after: the update that sees it starving, then the heartbeat that preempts
            jump = starves.plus(StartForecast.STEP);
        }
        Instant pass = preempting ? copy.ahead().nextPreemptivePass(t) : null;
        if (pass != null && pass.isBefore(jump)) {
            // preemption goes on a pass at a time, as the nodes' backoffs allow, not only when jobs end
            jump = pass;
        }
        for (SimNode node : nodes.values()) {
            Instant ends = node.nextEnd();
            if (ends != null && ends.isBefore(jump)) {
                jump = ends;
            }
        }
        if (coming != null && coming.next() != null && coming.next().isBefore(jump)) {
            jump = coming.next();
        }
        Instant step = t.plus(StartForecast.STEP);
        return jump.isAfter(step) ? jump : step;
    }
}
