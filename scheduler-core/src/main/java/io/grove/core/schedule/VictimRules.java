package io.grove.core.schedule;

import io.grove.core.operation.Job;
import io.grove.core.operation.PreemptionMode;
import io.grove.core.pool.PreemptionSettings;
import io.grove.core.pool.VictimOrder;
import io.grove.core.preempt.PreemptionStatus;
import io.grove.core.preempt.StarvationStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;

/**
 * Which running jobs a preemptive stage may take (docs/scheduling.md#preemptive-scheduling), on
 * any node: the job's preemption status, its blocker (graceful operation, normal preemption not
 * allowed, a starving or unsatisfied element above it), {@code min_job_runtime_before_preemption},
 * a job about to end (least lost work), and for a given starving operation the blocker's subtree and
 * the ping-pong guard. Shared by the heartbeat's stages and the preemption that frees room for a gang.
 */
final class VictimRules {

    private VictimRules() {
    }

    /**
     * The job as a candidate of the stage, or {@code null} when the stage may not take it;
     * {@code forStarvation} applies the rules that protect jobs from starving operations (their
     * minimum runtime, and under least lost work a job about to end).
     */
    static PreemptionCandidate candidate(SchedulingIndex index, Preemptibility statuses, PreemptionStage stage,
            PreemptionSettings settings, boolean forStarvation, Job job, Instant now) {
        if (job.interrupting()) {
            return null;
        }
        PreemptionStatus status = statuses.of(job);
        if (status.compareTo(stage.victims) < 0) {
            return null;
        }
        int at = index.indexOf(job.operationId());
        if (at >= 0 && index.drained[at]) {
            return null;   // stopping already, told by the drain in this same decision
        }
        if (forStarvation && at >= 0 && protectedByRuntime(index, at, job, now)) {
            return null;
        }
        long nowMs = now.toEpochMilli();
        if (forStarvation && settings.victimOrder() == VictimOrder.LEAST_LOST_WORK
                && VictimChoice.endsSoon(index, at, job, nowMs, settings.allocationGracefulPreemptionTimeout())) {
            return null;   // expected to end within the grace: left to end
        }
        double[] resources = job.resources().toArray();
        double share = VictimChoice.dominantShare(index, resources);
        double waste = VictimChoice.waste(job, share, nowMs);
        if (at >= 0 && index.gang[at]) {
            waste = VictimChoice.gangWaste(index, index.operations[at], nowMs);
        }
        int blocker = at < 0 ? -1 : blocker(index, at, stage, settings);
        if (blocker < 0) {
            return new PreemptionCandidate(job, at, status, -1, resources, waste, share);
        }
        if (blocker != at && index.operations[blocker] == null && status == PreemptionStatus.PREEMPTIBLE
                && settings.enableConditionalPreemption()) {
            return new PreemptionCandidate(job, at, status, blocker, resources, waste, share);
        }
        return null;
    }

    /**
     * Whether a candidate may be taken for the starving operation {@code targetId}, whose path to
     * the root is {@code path}: not its own job, its blocker (if any) is on the path, and the
     * ping-pong guard does not keep it.
     */
    static boolean usableFor(SchedulingIndex index, PreemptionCandidate candidate, Set<Integer> path, String targetId) {
        if (candidate.blocker() >= 0 && !path.contains(candidate.blocker())) {
            return false;
        }
        return !protectedFrom(index, candidate.job(), targetId);
    }

    /** Whether a job has run less than its pool's {@code min_job_runtime_before_preemption}. */
    static boolean protectedByRuntime(SchedulingIndex index, int at, Job job, Instant now) {
        long min = index.rights.minRuntimeMillis[at];
        return min > 0 && Duration.between(job.startTime(), now).toMillis() < min;
    }

    /** The ping-pong guard: a job started by preempting {@code target}'s operation stays with it. */
    static boolean protectedFrom(SchedulingIndex index, Job job, String target) {
        return job.startedByPreempting().contains(target)
                && index.dominantFairShare(job.operationId()) >= job.preemptorFairShareAtStart() - 1e-9;
    }

    /** The lowest element from the job's operation up (root excluded) that protects it, or -1. */
    static int blocker(SchedulingIndex index, int operation, PreemptionStage stage, PreemptionSettings settings) {
        if (index.operations[operation].spec().preemptionMode() == PreemptionMode.GRACEFUL) {
            return operation;
        }
        for (int at = operation; at > 0; at = index.parent[at]) {
            if (stage == PreemptionStage.NORMAL && !index.rights.allowNormal[at]) {
                return at;
            }
            if (settings.preemptionCheckStarvation() && index.starvation[at] != StarvationStatus.NON_STARVING) {
                return at;
            }
            if (settings.preemptionCheckSatisfaction()) {
                double threshold = stage == PreemptionStage.AGGRESSIVE && index.rights.allowAggressive[at]
                        ? settings.aggressivePreemptionSatisfactionThreshold() : settings.preemptionSatisfactionThreshold();
                if (index.localSatisfaction(at) < threshold - 1e-9) {
                    return at;
                }
            }
        }
        return -1;
    }
}
