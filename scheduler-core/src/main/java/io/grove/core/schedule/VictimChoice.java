package io.grove.core.schedule;

import io.grove.core.operation.Job;
import io.grove.core.operation.Operation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Which of the jobs a starving operation may take on a node are taken (docs/scheduling.md#least-lost-work):
 * in order (most preemptible first, then the least lost work, then the newest) until one of its
 * jobs fits on the node and within the limits on its path, then each victim not needed after all
 * given back, the costliest first — so no more is taken than the start needs. Works on copies:
 * nothing of the decision changes until the choice is taken.
 */
final class VictimChoice {

    private VictimChoice() {
    }

    /** A job's dominant share of the tree's total. */
    static double dominantShare(SchedulingIndex index, double[] resources) {
        double share = 0;
        for (int r = 0; r < resources.length; r++) {
            if (index.total[r] > 0) {
                share = Math.max(share, resources[r] / index.total[r]);
            }
        }
        return share;
    }

    /** The work a job's loss costs at {@code nowMs}: {@code share} times the seconds since its last checkpoint (or start). */
    static double waste(Job job, double share, long nowMs) {
        return share * Math.max(0, nowMs - job.workSinceMs()) / 1000.0;
    }

    /**
     * What taking a gang loses: taking one rank restarts it, so every rank's work since its last
     * checkpoint, and the wait to assemble it again, counted as long as its ranks last waited to start
     * together (since its last restart, or its submission). A gang that just started after a long
     * wait is then not the cheapest victim: taking it would waste the wait, not just seconds of work.
     */
    static double gangWaste(SchedulingIndex index, Operation gang, long nowMs) {
        double waste = 0;
        for (Job rank : gang.runningJobsArray()) {
            double share = dominantShare(index, rank.resources().toArray());
            waste += waste(rank, share, nowMs) + share * rank.gangWaitMs() / 1000.0;
        }
        return waste;
    }

    /** The dominant shares of a gang's running ranks, summed: how fast its lost work grows. */
    static double gangShare(SchedulingIndex index, Operation gang) {
        double share = 0;
        for (Job rank : gang.runningJobsArray()) {
            share += dominantShare(index, rank.resources().toArray());
        }
        return share;
    }

    /**
     * Whether a job is expected to end within {@code grace} of now — its time limit, or its task's
     * {@code expected_duration}, ends within it, or passed less than it ago — and is left to end.
     */
    static boolean endsSoon(SchedulingIndex index, int at, Job job, long nowMs, Duration grace) {
        Operation operation = at >= 0 ? index.operations[at] : null;
        Duration expected = job.task().expectedDuration();
        Duration limit = operation == null ? null : job.timeLimit(() -> operation);
        Duration bound = expected == null ? limit : limit == null || expected.compareTo(limit) < 0 ? expected : limit;
        if (bound == null) {
            return false;
        }
        long end = job.startTime().toEpochMilli() + bound.toMillis();
        return Math.abs(end - nowMs) <= grace.toMillis();
    }

    /** The order victims are taken in: most preemptible first, then the least lost work, then as given (newest first). */
    static final Comparator<PreemptionCandidate> LEAST_LOST_WORK = Comparator
            .comparing(PreemptionCandidate::status).reversed()
            .thenComparingDouble(PreemptionCandidate::waste);

    /**
     * The victims that let a job ({@code job}) of {@code target} start on the node, from {@code ordered}
     * in its order; with {@code giveBack}, those found unneeded once it fits are left running.
     *
     * @return the victims in the order taken, or {@code null} when even all of them do not make room
     */
    static List<PreemptionCandidate> choose(DecisionContext context, int target, double[] job,
            List<PreemptionCandidate> ordered, boolean giveBack) {
        SchedulingIndex index = context.index;
        int n = SchedulingIndex.N;
        List<Integer> path = new ArrayList<>();
        for (int at = target; at >= 0; at = index.parent[at]) {
            path.add(at);
        }
        double[] free = context.free.clone();
        double[] usage = new double[path.size() * n];
        for (int p = 0; p < path.size(); p++) {
            for (int r = 0; r < n; r++) {
                usage[p * n + r] = index.usage[path.get(p) * n + r] + job[r];
                free[r] -= p == 0 ? job[r] : 0;
            }
        }
        List<PreemptionCandidate> taken = new ArrayList<>();
        for (PreemptionCandidate victim : ordered) {
            if (!over(index, path, free, usage)) {
                break;
            }
            move(index, path, victim, free, usage, 1);
            taken.add(victim);
        }
        if (over(index, path, free, usage)) {
            return null;
        }
        if (giveBack) {
            List<PreemptionCandidate> costliest = new ArrayList<>(taken);
            costliest.sort(Comparator.comparingDouble(PreemptionCandidate::waste).reversed());
            for (PreemptionCandidate victim : costliest) {
                move(index, path, victim, free, usage, -1);
                if (over(index, path, free, usage)) {
                    move(index, path, victim, free, usage, 1);
                } else {
                    taken.remove(victim);
                }
            }
        }
        return taken;
    }

    /** Frees ({@code sign} 1) or takes back (-1) a victim's resources on the node and on the path's elements above it. */
    private static void move(SchedulingIndex index, List<Integer> path, PreemptionCandidate victim, double[] free,
            double[] usage, int sign) {
        int n = SchedulingIndex.N;
        double[] resources = victim.resources();
        for (int r = 0; r < n; r++) {
            free[r] += sign * resources[r];
        }
        if (victim.operation() < 0) {
            return;
        }
        for (int p = 0; p < path.size(); p++) {
            if (isAncestor(index, path.get(p), victim.operation())) {
                for (int r = 0; r < n; r++) {
                    usage[p * n + r] -= sign * resources[r];
                }
            }
        }
    }

    /** Whether the node, or an element on the path, is over its limits. */
    private static boolean over(SchedulingIndex index, List<Integer> path, double[] free, double[] usage) {
        int n = SchedulingIndex.N;
        for (double value : free) {
            if (value < -1e-9) {
                return true;
            }
        }
        for (int p = 0; p < path.size(); p++) {
            int at = path.get(p);
            for (int r = 0; r < n; r++) {
                if (usage[p * n + r] > index.limits[at * n + r] + 1e-9) {
                    return true;
                }
            }
        }
        return false;
    }

    static boolean isAncestor(SchedulingIndex index, int ancestor, int element) {
        for (int at = element; at >= 0; at = index.parent[at]) {
            if (at == ancestor) {
                return true;
            }
        }
        return false;
    }

    /** How many jobs of {@code target} its fair share still wants, by its job's size (at least 1, at most 64). */
    static int wanted(SchedulingIndex index, int target, double[] job) {
        int n = SchedulingIndex.N;
        double most = 1;
        for (int r = 0; r < n; r++) {
            if (job[r] > 0) {
                most = Math.max(most, (index.fairShare[target * n + r] * index.total[r] - index.usage[target * n + r]) / job[r]);
            }
        }
        return (int) Math.min(PreemptionOffers.MAX_INVITED, Math.ceil(most - 1e-9));
    }
}
