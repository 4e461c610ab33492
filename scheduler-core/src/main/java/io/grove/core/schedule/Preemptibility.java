package io.grove.core.schedule;

import io.grove.core.operation.Job;
import io.grove.core.operation.Operation;
import io.grove.core.pool.PreemptionSettings;
import io.grove.core.pool.VictimOrder;
import io.grove.core.preempt.PreemptibleLists;
import io.grove.core.preempt.PreemptionStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The preemption status of jobs (see docs/scheduling.md#which-jobs-may-be-preempted), worked out per operation when first asked within
 * one decision from the operation's jobs in the tree and its published fair share. The jobs are
 * counted in start order (the reference's), or under {@code least_lost_work} those with the most
 * work at stake first — the same share of the operation is preemptible either way, but then it is
 * the jobs that lose the least (docs/scheduling.md#least-lost-work). Jobs of operations without a
 * fair share in the index count as preemptible.
 */
final class Preemptibility {

    private final SchedulingIndex index;
    private final long nowMs;
    private final boolean leastLost;
    private final Map<String, PreemptionStatus> statuses = new HashMap<>();

    Preemptibility(SchedulingIndex index, Instant now) {
        this.index = index;
        this.nowMs = now.toEpochMilli();
        this.leastLost = index.config.preemption().victimOrder() == VictimOrder.LEAST_LOST_WORK;
    }

    PreemptionStatus of(Job job) {
        PreemptionStatus known = statuses.get(job.id());
        if (known != null) {
            return known;
        }
        int at = index.indexOf(job.operationId());
        if (at < 0 || index.operations[at] == null) {
            return PreemptionStatus.PREEMPTIBLE;
        }
        classify(at);
        return statuses.getOrDefault(job.id(), PreemptionStatus.PREEMPTIBLE);
    }

    /**
     * The jobs' places with the most work at stake first, ties in start order: one primitive sort of
     * keys that pack the stake (as a float, enough to order by) above each job's place.
     */
    private int[] mostAtStakeFirst(List<Job> jobs, double[][] resources) {
        long[] keys = new long[jobs.size()];
        for (int j = 0; j < keys.length; j++) {
            float stake = (float) VictimChoice.waste(jobs.get(j), VictimChoice.dominantShare(index, resources[j]), nowMs);
            keys[j] = (long) (Integer.MAX_VALUE - Float.floatToIntBits(Math.max(0f, stake))) << 32 | j;
        }
        Arrays.sort(keys);
        int[] order = new int[keys.length];
        for (int k = 0; k < keys.length; k++) {
            order[k] = (int) keys[k];
        }
        return order;
    }

    private void classify(int at) {
        Operation operation = index.operations[at];
        List<Job> jobs = new ArrayList<>();
        for (Job job : operation.runningJobsView()) {
            if (job.tree().equals(index.tree)) {
                jobs.add(job);
            }
        }
        double[][] resources = new double[jobs.size()][];
        for (int j = 0; j < resources.length; j++) {
            resources[j] = jobs.get(j).resources().toArray();
        }
        if (leastLost && jobs.size() > 1) {
            // the most work at stake is counted first, so it is the last to be preemptible
            int[] order = mostAtStakeFirst(jobs, resources);
            List<Job> sorted = new ArrayList<>(order.length);
            double[][] sortedResources = new double[order.length][];
            for (int k = 0; k < order.length; k++) {
                sorted.add(jobs.get(order[k]));
                sortedResources[k] = resources[order[k]];
            }
            jobs = sorted;
            resources = sortedResources;
        }
        double[] fairShare = new double[SchedulingIndex.N];
        double[] demand = new double[SchedulingIndex.N];
        index.fairShare(at, fairShare);
        index.demandShare(at, demand);
        PreemptionSettings settings = index.config.preemption();
        PreemptionStatus[] out = PreemptibleLists.classify(resources, index.total, fairShare, demand,
                settings.aggressivePreemptionSatisfactionThreshold(), settings.preemptionSatisfactionThreshold(),
                index.rights.nonPreemptibleThreshold[at]);
        for (int j = 0; j < out.length; j++) {
            statuses.put(jobs.get(j).id(), out[j]);
        }
    }
}
