package io.grove.core.schedule;

import io.grove.core.operation.Job;
import io.grove.core.pool.PreemptionSettings;
import io.grove.core.pool.VictimOrder;
import io.grove.core.resource.ShareVector;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The preemptive stages of a heartbeat (see docs/scheduling.md#preemptive-scheduling): aggressive, then normal. Each stage
 * finds the node's jobs that may be taken (unconditionally, or conditionally within the subtree of
 * the pool that blocks them), then tries the starving operations, lowest satisfaction first, with
 * the node's free resources plus those jobs. The first job that fits is started and the victims
 * are chosen most preemptible first, newest first, until the node and every pool on the
 * preemptor's path fit again. At most one preemptive start per heartbeat. Then, as the reference's
 * normal stage always does, jobs of operations and pools above their specified limits (lowered
 * since the jobs started) are taken back, newest first, until each is within its limits.
 *
 * <p><b>No ping-pong.</b> A preemption never causes a preemption back while nothing else changes:
 * <ul>
 *   <li>a starving element blocks preemption of every job below it, so the preemptor's jobs are
 *       safe while it (or its starving ancestor) still starves;</li>
 *   <li>in the normal stage only preemptible jobs are victims: the usage before each of them is at
 *       least the fair share, so after losing them the victim's operation is still at its fair
 *       share, is not below it, and does not start to starve;</li>
 *   <li>and explicitly, for the aggressive stage whose victims may fall below their fair share: a
 *       job started by preemption is never a victim for an operation it preempted, as long as its
 *       own operation's fair share has not dropped below what it was when the job started.</li>
 * </ul>
 */
final class PreemptiveScheduling {

    private PreemptiveScheduling() {
    }

    /** @return whether a preemptive pass ran (which starts the node's backoff) */
    static boolean run(DecisionContext context, Preemptibility statuses) {
        SchedulingIndex index = context.index;
        boolean violated = limitsViolatedOnNode(context);
        if (index.starvingOperations.length == 0 && !violated) {
            return false;
        }
        PreemptionSettings settings = index.config.preemption();
        Instant last = context.node.lastPreemptivePass();
        boolean invited = context.offers != null && context.offers.invites(context.node.id());
        if (!invited && last != null && context.now.isBefore(last.plus(settings.preemptiveSchedulingBackoff()))) {
            return false;
        }
        startForStarving(context, statuses, settings);
        if (violated) {
            fixViolatedLimits(context, statuses, settings);
        }
        return true;
    }

    private static void startForStarving(DecisionContext context, Preemptibility statuses, PreemptionSettings settings) {
        SchedulingIndex index = context.index;
        if (index.starvingOperations.length == 0) {
            return;
        }
        for (PreemptionStage stage : PreemptionStage.values()) {
            List<Integer> targets = targets(context, stage);
            if (targets.isEmpty()) {
                continue;
            }
            List<PreemptionCandidate> candidates = candidates(context, statuses, stage, settings, true);
            for (int target : targets) {
                if (index.isSchedulable(target) && tryTarget(context, stage, target, candidates, settings)) {
                    return;
                }
            }
        }
    }

    /** Whether a job on the node belongs to an element (root excluded) above its specified limits. */
    private static boolean limitsViolatedOnNode(DecisionContext context) {
        SchedulingIndex index = context.index;
        if (!index.anyOverLimits) {
            return false;
        }
        for (Job job : context.node.jobs()) {
            int at = index.indexOf(job.operationId());
            if (at >= 0 && violatedAbove(index, at, job.resources().toArray()) >= 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * The lowest element from {@code at} up (root excluded) whose usage is above its limits in a
     * resource the job uses, or -1.
     */
    private static int violatedAbove(SchedulingIndex index, int at, double[] job) {
        int n = SchedulingIndex.N;
        for (int e = at; e > 0; e = index.parent[e]) {
            for (int r = 0; r < n; r++) {
                if (job[r] > 0 && index.usage[e * n + r] > index.limits[e * n + r] + 1e-9) {
                    return e;
                }
            }
        }
        return -1;
    }

    /**
     * The normal stage's limits pass: the node's preemptible jobs that nothing protects (as victims
     * of the normal stage), newest first, are taken while their operation or a pool above it is
     * over its limits. Each taken job lowers the usage on its path, so it stops once all fit.
     */
    private static void fixViolatedLimits(DecisionContext context, Preemptibility statuses, PreemptionSettings settings) {
        SchedulingIndex index = context.index;
        for (PreemptionCandidate candidate : candidates(context, statuses, PreemptionStage.NORMAL, settings, false)) {
            if (candidate.blocker() >= 0 || candidate.operation() < 0 || context.released.contains(candidate.job().id())) {
                continue;
            }
            int violated = violatedAbove(index, candidate.operation(), candidate.resources());
            if (violated < 0) {
                continue;
            }
            Job job = candidate.job();
            String element = index.operations[violated] != null ? "operation " + index.ids[violated] : "pool " + index.ids[violated];
            context.release(job);
            context.preemptions.add(new Decision.JobPreemption(job.id(), job.operationId(),
                    Decision.PreemptionReason.RESOURCE_LIMITS_VIOLATED, null, null, settings.allocationPreemptionTimeout(),
                    "preempted because " + element + " uses more than its resource_limits in tree " + index.tree
                            + " (lowered since the job started)"));
        }
    }

    private static List<Integer> targets(DecisionContext context, PreemptionStage stage) {
        SchedulingIndex index = context.index;
        List<Integer> targets = new ArrayList<>();
        for (int at : index.starvingOperations) {
            if (index.priority[at].compareTo(stage.targets) >= 0 && index.isSchedulable(at) && !context.excludedByTags(at)) {
                targets.add(at);
            }
        }
        double[] satisfaction = new double[index.size];
        for (int at : targets) {
            satisfaction[at] = index.localSatisfaction(at);
        }
        targets.sort(Comparator.comparingDouble((Integer at) -> satisfaction[at]).thenComparingInt(at -> at));
        return targets;
    }

    /**
     * The node's jobs a stage may take; {@code forStarvation} leaves out the jobs younger than their
     * pool's {@code min_job_runtime_before_preemption} (limits lowered under a job take it anyway).
     */
    private static List<PreemptionCandidate> candidates(DecisionContext context, Preemptibility statuses,
            PreemptionStage stage, PreemptionSettings settings, boolean forStarvation) {
        boolean leastLost = forStarvation && settings.victimOrder() == VictimOrder.LEAST_LOST_WORK;
        List<PreemptionCandidate> out = new ArrayList<>();
        for (Job job : HeartbeatScheduler.newestFirst(context.node.jobs())) {
            PreemptionCandidate candidate = context.released.contains(job.id()) ? null
                    : VictimRules.candidate(context.index, statuses, stage, settings, forStarvation, job, context.now);
            if (candidate != null) {
                out.add(candidate);
            }
        }
        out.sort(leastLost ? VictimChoice.LEAST_LOST_WORK : Comparator.comparing(PreemptionCandidate::status).reversed());
        return out;
    }

    private static boolean tryTarget(DecisionContext context, PreemptionStage stage, int target, List<PreemptionCandidate> all,
            PreemptionSettings settings) {
        SchedulingIndex index = context.index;
        Set<Integer> path = new HashSet<>();
        for (int at = target; at >= 0; at = index.parent[at]) {
            path.add(at);
        }
        String targetId = index.operations[target].id();
        boolean leastLost = settings.victimOrder() == VictimOrder.LEAST_LOST_WORK && context.offers != null;
        if (leastLost && !context.tries(targetId)) {
            return false;   // offered in the aggressive stage already, with more jobs to take
        }
        List<PreemptionCandidate> usable = new ArrayList<>();
        for (PreemptionCandidate candidate : all) {
            if (context.released.contains(candidate.job().id()) || candidate.operation() == target) {
                continue;
            }
            if (VictimRules.usableFor(index, candidate, path, targetId)) {
                usable.add(candidate);
            }
        }
        // on a node a gang's reservation holds, preemption makes room only for jobs that end before its start
        int task = usable.isEmpty() ? -1 : index.plans.taskFitting(target, roomWith(context, target, usable),
                context.diskFree, context.node.condition().runsImages(), context.reservation() == null ? null
                        : t -> context.endsBeforeReservation(target, t));
        double[] job = task < 0 ? null : index.operations[target].jobVector(task);
        List<PreemptionCandidate> victims = job == null ? null
                : VictimChoice.choose(context, target, job, usable, settings.victimOrder() == VictimOrder.LEAST_LOST_WORK);
        if (victims == null) {
            if (leastLost) {
                context.offers(new Decision.PreemptionOffer(targetId, Double.POSITIVE_INFINITY, 0, 1));
            }
            return false;
        }
        if (leastLost) {
            double cost = 0;
            double rate = 0;
            Set<Integer> gangs = null;   // made only when a gang is among the victims: none on most passes
            for (PreemptionCandidate victim : victims) {
                // a gang's rank carries its whole gang's waste, which grows with every rank's work: counted once
                boolean gang = victim.operation() >= 0 && index.gang[victim.operation()];
                if (!gang) {
                    cost += victim.waste();
                    rate += victim.share();
                } else if ((gangs = gangs == null ? new HashSet<>() : gangs).add(victim.operation())) {
                    cost += victim.waste();
                    rate += VictimChoice.gangShare(index, index.operations[victim.operation()]);
                }
            }
            if (!context.offers.takeNow(targetId, context.node.id(), cost, context.now)) {
                context.offers(new Decision.PreemptionOffer(targetId, cost, rate, VictimChoice.wanted(index, target, job)));
                return false;
            }
        }
        String starving = starvingSide(index, target);
        Decision.JobStart start = context.plan(target, task, true);
        for (PreemptionCandidate victim : victims) {
            context.release(victim.job());
            context.preemptions.add(new Decision.JobPreemption(victim.job().id(), victim.job().operationId(),
                    stage.reason, targetId, start.jobId(), settings.allocationPreemptionTimeout(),
                    "preempted for job " + start.jobId() + " of operation " + targetId + starving + ", "
                            + stage.reason.name().toLowerCase().replace('_', ' ') + " in tree " + index.tree
                            + "; the job was " + victim.status().name().toLowerCase().replace('_', ' ')
                            + lostWork(victim, context.now.toEpochMilli())));
        }
        return true;
    }

    /** What the victim loses, for its message: the work since its last checkpoint, or since its start. */
    private static String lostWork(PreemptionCandidate victim, long nowMs) {
        Job job = victim.job();
        long seconds = Math.max(0, nowMs - job.workSinceMs()) / 1000;
        return job.lastCheckpoint() == null ? "; it loses " + seconds + " s of work (no checkpoint reported)"
                : "; it loses " + seconds + " s of work since its last checkpoint";
    }

    /**
     * Who starves, for a victim's message: the target's pool and its dominant usage against its
     * fair share (shares of the tree), e.g. {@code  in pool research (using 5% of the tree, fair share 40%)}.
     */
    private static String starvingSide(SchedulingIndex index, int target) {
        int pool = index.parent[target];
        double fair = 0;
        double used = 0;
        int n = SchedulingIndex.N;
        for (int r = 0; r < n; r++) {
            fair = Math.max(fair, index.fairShare[target * n + r]);
            used = Math.max(used, ShareVector.ratio(index.usage[target * n + r], index.total[r]));
        }
        return (pool < 0 ? "" : " in pool " + index.ids[pool]) + String.format(Locale.ROOT,
                " (using %.0f%% of the tree, fair share %.0f%%)", used * 100, fair * 100);
    }

    /** Free resources plus the usable jobs, within the limits on the target's path plus the jobs below them. */
    private static double[] roomWith(DecisionContext context, int target, List<PreemptionCandidate> usable) {
        SchedulingIndex index = context.index;
        int n = SchedulingIndex.N;
        double[] room = context.free.clone();
        for (PreemptionCandidate candidate : usable) {
            for (int r = 0; r < n; r++) {
                room[r] += candidate.resources()[r];
            }
        }
        for (int at = target; at >= 0; at = index.parent[at]) {
            double[] left = new double[n];
            for (int r = 0; r < n; r++) {
                left[r] = index.limits[at * n + r] - index.usage[at * n + r];
            }
            for (PreemptionCandidate candidate : usable) {
                if (candidate.operation() >= 0 && VictimChoice.isAncestor(index, at, candidate.operation())) {
                    for (int r = 0; r < n; r++) {
                        left[r] += candidate.resources()[r];
                    }
                }
            }
            for (int r = 0; r < n; r++) {
                room[r] = Math.min(room[r], left[r]);
            }
        }
        return room;
    }
}
