package io.grove.core.schedule;

import io.grove.core.node.Node;
import io.grove.core.node.NodeDrain;
import io.grove.core.operation.Job;
import io.grove.core.operation.OperationRegistry;
import io.grove.core.operation.PreemptionMode;
import io.grove.core.pool.PreemptionSettings;
import io.grove.core.preempt.PreemptionStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.IntPredicate;

/**
 * {@code decide(index, node, heartbeat, now) -> Decision}: the answer to one heartbeat, computed
 * without changing any state (the index's precommits are undone before returning).
 *
 * <ol>
 *   <li>jobs the node runs that the scheduler does not know are aborted;</li>
 *   <li>if the node runs more than its limits allow, the least protected jobs are aborted;</li>
 *   <li>graceful operations above their fair share get their preemptible jobs interrupted;</li>
 *   <li>regular scheduling: the descent (docs/scheduling.md#the-heartbeat-decision) until the node is full or nothing fits;</li>
 *   <li>preemptive scheduling (see docs/scheduling.md#preemptive-scheduling) for starving operations, at most one start, at most one
 *       pass per node per {@code preemptive_scheduling_backoff};</li>
 *   <li>typed reasons for the resources left idle.</li>
 * </ol>
 */
public final class HeartbeatScheduler {


    private HeartbeatScheduler() {
    }

    /**
     * Decides one heartbeat; the descent takes its shortcuts unless {@code shortcuts} is off (only
     * in the test that proves they change no decision: {@code ClusterSettings.descentShortcuts}).
     */
    public static Decision decide(SchedulingIndex index, Node node, Heartbeat heartbeat, Instant now,
            OperationRegistry registry, boolean shortcuts) {
        return decide(index, node, heartbeat, now, registry, shortcuts, List.of(), null, null);
    }

    /** As below, on a node no gang's reservation holds. */
    public static Decision decide(SchedulingIndex index, Node node, Heartbeat heartbeat, Instant now,
            OperationRegistry registry, boolean shortcuts, List<GangPlan.Rank> due, PreemptionOffers offers) {
        return decide(index, node, heartbeat, now, registry, shortcuts, due, offers, null);
    }

    /**
     * As above, with the gang ranks planned on this node ({@code due}), which start before anything
     * else; the node's gang interruptions ({@link Node#toInterruptView}) go out too. Starvation
     * preemption takes victims where the tree's {@code offers} say ({@code null}: on this node as
     * soon as it can). On a node a gang's {@code reservation} holds, only jobs that end before its
     * start or fit beside it start.
     */
    public static Decision decide(SchedulingIndex index, Node node, Heartbeat heartbeat, Instant now,
            OperationRegistry registry, boolean shortcuts, List<GangPlan.Rank> due, PreemptionOffers offers,
            GangReservation reservation) {
        List<Decision.JobAbort> unknown = unknownJobs(node, heartbeat, registry);
        if (node.tree() == null) {
            Decision.IdleCode code = node.matchesSeveralTrees() ? Decision.IdleCode.AMBIGUOUS_TREE : Decision.IdleCode.NO_TREE;
            return Decision.nothing(node.id(), null, unknown, List.of(new Decision.IdleReason(code, 0,
                    heartbeat.resourceLimits(), node.treeProblem() == null ? "the node matches no pool tree" : node.treeProblem())));
        }
        if (index == null) {
            return Decision.nothing(node.id(), node.tree(), unknown, List.of(new Decision.IdleReason(
                    Decision.IdleCode.NO_FAIR_SHARE, 0, heartbeat.resourceLimits(),
                    "tree " + node.tree() + " has no fair share yet")));
        }
        DecisionContext context = new DecisionContext(index, node, heartbeat.resourceLimits(), now, offers);
        context.aborts.addAll(unknown);
        if (reservation != null && reservation.needs(node.id()) != null) {
            context.reserved(reservation, due);
        }
        try {
            Preemptibility statuses = new Preemptibility(index, now);
            abortOvercommit(context, statuses);
            interruptDrained(context);
            interruptGraceful(context, statuses);
            interruptAsked(context);
            context.excludeUnmatchedTags();
            if (!node.schedulable()) {
                // aborts and interruptions still go out; nothing starts on a node that says it cannot
                return new Decision(node.id(), index.tree(), context.starts, context.preemptions, context.aborts,
                        List.of(new Decision.IdleReason(Decision.IdleCode.UNSCHEDULABLE, 0, context.freeResources(),
                                node.drain() != null ? node.drain().describe()
                                        : "node " + node.id() + " cannot start jobs: " + node.condition().unschedulable())), false);
            }
            startRanks(context, due);
            scheduleRegular(context, shortcuts);
            boolean preemptive = PreemptiveScheduling.run(context, statuses);
            return new Decision(node.id(), index.tree(), context.starts, context.preemptions, context.aborts,
                    idleReasons(context), preemptive, context.offersMade);
        } finally {
            context.undo();
        }
    }

    private static List<Decision.JobAbort> unknownJobs(Node node, Heartbeat heartbeat, OperationRegistry registry) {
        List<Decision.JobAbort> aborts = new ArrayList<>();
        if (heartbeat.delta()) {
            // a delta does not list what still runs: every job the scheduler ended is told again
            // until the node reports it ended
            node.endedBySchedulerView().forEach((jobId, why) -> aborts.add(new Decision.JobAbort(jobId,
                    node.runsUnknown(jobId) ? Decision.AbortReason.UNKNOWN_JOB : Decision.AbortReason.ENDED_BY_SCHEDULER,
                    why)));
        }
        for (Heartbeat.RunningJob running : heartbeat.runningJobs()) {
            if (node.hasJob(running.jobId())) {
                continue;
            }
            Job job = registry.runningJob(running.jobId());
            String ended = node.whyEnded(running.jobId());
            if (heartbeat.delta() && ended != null) {
                continue;   // told above
            }
            if (job == null && ended != null && !node.runsUnknown(running.jobId())) {
                aborts.add(new Decision.JobAbort(running.jobId(), Decision.AbortReason.ENDED_BY_SCHEDULER, ended));
            } else if (job == null) {
                aborts.add(new Decision.JobAbort(running.jobId(), Decision.AbortReason.UNKNOWN_JOB,
                        "the scheduler knows no running job " + running.jobId()));
            } else if (!job.nodeId().equals(node.id())) {
                aborts.add(new Decision.JobAbort(running.jobId(), Decision.AbortReason.UNKNOWN_JOB,
                        "job " + running.jobId() + " runs on node " + job.nodeId() + ", not here"));
            }
        }
        return aborts;
    }

    /** Step 2 of a decision (docs/scheduling.md#the-heartbeat-decision): a node whose limits shrank loses its least protected jobs first. */
    private static void abortOvercommit(DecisionContext context, Preemptibility statuses) {
        if (!overcommitted(context.free)) {
            return;
        }
        List<Job> jobs = newestFirst(context.node.jobs());
        jobs.sort(Comparator.comparing((Job job) -> statuses.of(job)).reversed());
        for (Job job : jobs) {
            if (!overcommitted(context.free)) {
                break;
            }
            context.release(job);
            context.aborts.add(new Decision.JobAbort(job.id(), Decision.AbortReason.RESOURCE_OVERCOMMIT,
                    "node " + context.node.id() + " runs more than its limits; job " + job.id() + " ("
                            + statuses.of(job).name().toLowerCase() + ") is aborted to fit"));
        }
    }

    /** The node's jobs, newest first (a node keeps them in start order); sorts on it are stable. */
    static List<Job> newestFirst(Collection<Job> jobs) {
        List<Job> out = new ArrayList<>(jobs);
        Collections.reverse(out);
        return out;
    }

    private static boolean overcommitted(double[] free) {
        for (double value : free) {
            if (value < -1e-9) {
                return true;
            }
        }
        return false;
    }

    /** Jobs in the subtree of a drained pool are stopped gracefully, with the graceful preemption's grace. */
    private static void interruptDrained(DecisionContext context) {
        NodeDrain drain = context.node.drain();
        if (drain != null && drain.now()) {
            interruptWhere(context, Decision.PreemptionReason.NODE_DRAINED, at -> true,
                    job -> drain.describe() + ": the job is stopped and starts again on another node");
        }
        if (context.index.anyDrained) {
            interruptWhere(context, Decision.PreemptionReason.POOL_DRAINED, at -> context.index.drained[at],
                    job -> "its pool is drained by an administrator: the job is stopped and starts again when the pool "
                            + "is resumed");
        }
    }

    /** Jobs of graceful operations above their fair share are interrupted, with a long grace. */
    private static void interruptGraceful(DecisionContext context, Preemptibility statuses) {
        if (context.index.anyGraceful) {
            interruptWhere(context, Decision.PreemptionReason.GRACEFUL,
                    at -> context.index.operations[at].spec().preemptionMode() == PreemptionMode.GRACEFUL
                            && !context.index.drained[at],
                    job -> statuses.of(job) != PreemptionStatus.PREEMPTIBLE ? null
                            : "graceful preemption: operation " + job.operationId() + " is above its fair share");
        }
    }

    /**
     * The jobs the scheduler asked to stop at this heartbeat — a restarting gang's ranks, jobs past
     * their time limit — with the tree's graceful grace.
     */
    private static void interruptAsked(DecisionContext context) {
        if (!context.node.hasInterrupts()) {
            return;
        }
        PreemptionSettings settings = context.index.config.preemption();
        context.node.toInterruptView().forEach((jobId, asked) -> {
            Job job = context.node.jobs().stream().filter(j -> j.id().equals(jobId)).findFirst().orElse(null);
            if (job != null && !job.interrupting() && !context.released.contains(jobId) && !context.interrupts(jobId)) {
                Decision.PreemptionReason reason = Decision.PreemptionReason.valueOf(asked.reason().toUpperCase(Locale.ROOT));
                boolean graceful = reason == Decision.PreemptionReason.GANG_RESTART
                        || reason == Decision.PreemptionReason.TIME_LIMIT;
                if (!graceful) {
                    context.release(job);   // taken for a gang's room: its ranks may start in this same decision
                }
                context.preemptions.add(new Decision.JobPreemption(jobId, job.operationId(), reason,
                        asked.preemptorOperationId(), null, graceful ? settings.allocationGracefulPreemptionTimeout()
                                : settings.allocationPreemptionTimeout(), asked.why()));
            }
        });
    }

    /** Starts the gang ranks planned on this node, each where it fits (a plan that cannot start here is dropped at its deadline). */
    private static void startRanks(DecisionContext context, List<GangPlan.Rank> due) {
        for (GangPlan.Rank rank : due) {
            int at = context.index.indexOf(rank.operationId());
            if (at >= 0 && context.index.operations[at].runsIn(context.index.tree) && !context.index.paused[at]
                    && Fits.fits(context.index.operations[at].jobVector(rank.position()), context.free)) {
                context.planRank(at, rank);
            }
        }
    }

    /**
     * Interrupts, with the tree's graceful grace, the node's jobs whose operation {@code chosen}
     * takes and for which {@code message} gives a reason ({@code null}: the job stays).
     */
    private static void interruptWhere(DecisionContext context, Decision.PreemptionReason reason,
            IntPredicate chosen, Function<Job, String> message) {
        Duration grace = context.index.config.preemption().allocationGracefulPreemptionTimeout();
        for (Job job : context.node.jobs()) {
            if (context.released.contains(job.id()) || job.interrupting() || context.interrupts(job.id())) {
                continue;
            }
            int at = context.index.indexOf(job.operationId());
            String why = at < 0 || !chosen.test(at) ? null : message.apply(job);
            if (why != null) {
                context.preemptions.add(new Decision.JobPreemption(job.id(), job.operationId(), reason, null, null, grace,
                        why));
            }
        }
    }

    /**
     * The descent (docs/scheduling.md#the-heartbeat-decision): by lowest satisfaction, start one job, repeat until full. The descent
     * goes where it always went; but an element whose smallest job left does not fit in what is
     * free is deactivated whole for the decision (a pool with every operation below it, counted
     * as fragmentation) instead of operation by operation, and a node where nothing fits (a full
     * node, the common case) skips the descent. The starts are the same as without these shortcuts.
     */
    static void scheduleRegular(DecisionContext context, boolean shortcuts) {
        SchedulingIndex index = context.index;
        while (context.hasFreeSlot()) {
            if (shortcuts && !index.somethingMayFit(context.free)) {
                context.unfitLeft = index.activeCount(0);
                return;
            }
            int at = 0;
            while (at >= 0 && index.operations[at] == null) {
                int child = index.bestChild(at);
                if (shortcuts && child >= 0 && !index.mayFit(child, context.free)) {
                    if (index.operations[child] != null) {
                        context.deactivate(child, Decision.IdleCode.FRAGMENTATION);
                    } else {
                        context.deactivatePool(child);
                    }
                    at = 0;
                    continue;
                }
                at = child;
            }
            if (at < 0) {
                return;
            }
            tryStart(context, at, context.free, false);
        }
    }

    /**
     * Tries to start one job of operation {@code at} within {@code available} and the limits on its
     * path; deactivates the operation for this decision with the reason if none fits.
     *
     * @return the start, or {@code null}
     */
    static Decision.JobStart tryStart(DecisionContext context, int at, double[] available, boolean preemptive) {
        SchedulingIndex index = context.index;
        double[] room = available.clone();
        index.limitRoom(at, room);
        boolean images = context.node.condition().runsImages();
        int task = index.plans.taskFitting(at, room, context.diskFree, images);
        if (task >= 0 && !context.backfills(at, task, room)) {
            // the node is reserved for a gang: only a job that ends before its start, or fits beside it
            task = index.plans.taskFitting(at, room, context.diskFree, images, t -> context.backfills(at, t, room));
            if (task < 0) {
                context.deactivate(at, Decision.IdleCode.RESERVED);
                return null;
            }
        }
        if (task < 0) {
            double[] smallest = index.plans.smallestJob(at);
            boolean fitsNode = smallest != null && Fits.fits(smallest, available);
            boolean fitsButImages = !images && index.plans.taskFitting(at, room, context.diskFree, true) >= 0;
            boolean fitsButDisk = !fitsButImages && index.plans.taskFitting(at, room, Long.MAX_VALUE, images) >= 0;
            context.deactivate(at, fitsButImages ? Decision.IdleCode.NO_IMAGES : fitsButDisk ? Decision.IdleCode.DISK
                    : fitsNode ? Decision.IdleCode.LIMITS : Decision.IdleCode.FRAGMENTATION);
            return null;
        }
        return context.plan(at, task, preemptive);
    }

    private static List<Decision.IdleReason> idleReasons(DecisionContext context) {
        if (!context.hasFreeSlot()) {
            return List.of();
        }
        List<Decision.IdleReason> reasons = new ArrayList<>();
        int fragmented = context.idle.getOrDefault(Decision.IdleCode.FRAGMENTATION, 0) + context.unfitLeft;
        int limited = context.idle.getOrDefault(Decision.IdleCode.LIMITS, 0);
        int unmatched = context.idle.getOrDefault(Decision.IdleCode.UNMATCHED_TAGS, 0);
        int disk = context.idle.getOrDefault(Decision.IdleCode.DISK, 0);
        int noImages = context.idle.getOrDefault(Decision.IdleCode.NO_IMAGES, 0);
        int reserved = context.idle.getOrDefault(Decision.IdleCode.RESERVED, 0);
        if (reserved > 0) {
            GangReservation reservation = context.reservation();
            reasons.add(new Decision.IdleReason(Decision.IdleCode.RESERVED, reserved, context.freeResources(),
                    reserved + " operation(s) have pending jobs that could still run when gang "
                            + reservation.operationId() + " is to start on node " + context.node.id()
                            + " (its reservation: " + reservation.describe() + "); only jobs whose time limit ends "
                            + "before then, or that fit beside the gang, start here"));
        }
        if (noImages > 0) {
            reasons.add(new Decision.IdleReason(Decision.IdleCode.NO_IMAGES, noImages, context.freeResources(),
                    noImages + " operation(s) have pending jobs in container images, which node " + context.node.id()
                            + " does not run (" + context.node.condition().noImages() + ")"));
        }
        if (disk > 0) {
            reasons.add(new Decision.IdleReason(Decision.IdleCode.DISK, disk, context.freeResources(),
                    disk + " operation(s) have pending jobs whose disk_space is more than node " + context.node.id()
                            + " has free (" + context.diskFree + " bytes)"));
        }
        if (fragmented > 0) {
            reasons.add(new Decision.IdleReason(Decision.IdleCode.FRAGMENTATION, fragmented, context.freeResources(),
                    fragmented + " operation(s) have pending jobs larger than what is free on node " + context.node.id()));
        }
        if (limited > 0) {
            reasons.add(new Decision.IdleReason(Decision.IdleCode.LIMITS, limited, context.freeResources(),
                    limited + " operation(s) are at the resource limits of a pool or their own"));
        }
        if (unmatched > 0) {
            reasons.add(new Decision.IdleReason(Decision.IdleCode.UNMATCHED_TAGS, unmatched, context.freeResources(),
                    unmatched + " operation(s) may not run on node " + context.node.id()
                            + ": a scheduling tag filter does not match its tags"));
        }
        if (reasons.isEmpty()) {
            reasons.add(new Decision.IdleReason(Decision.IdleCode.NO_DEMAND, 0, context.freeResources(),
                    "no operation in tree " + context.index.tree() + " has a pending job"));
        }
        return reasons;
    }
}
