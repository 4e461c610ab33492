package io.grove.core.schedule;

import io.grove.core.operation.Job;
import io.grove.core.operation.Operation;
import io.grove.core.pool.PreemptionSettings;
import io.grove.core.pool.VictimOrder;
import io.grove.core.preempt.PreemptibleLists;
import io.grove.core.preempt.PreemptionStatus;
import java.time.Instant;
import java.util.ArrayList;
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

    private void classify(int at) {
        Operation operation = index.operations[at];
        List<Job> jobs = new ArrayList<>();
        for (Job job : operation.runningJobsView()) {
            if (job.tree().equals(index.tree)) {
                jobs.add(job);
            }
        }
        if (leastLost && jobs.size() > 1) {
            // the most work at stake is counted first, so it is the last to be preemptible; ties in start order
            Map<Job, Double> stake = new HashMap<>();
            for (Job job : jobs) {
                stake.put(job, VictimChoice.waste(job, VictimChoice.dominantShare(index, job.resources().toArray()), nowMs));
            }
            jobs.sort((a, b) -> Double.compare(stake.get(b), stake.get(a)));
        }
        double[][] resources = new double[jobs.size()][];
        for (int j = 0; j < resources.length; j++) {
            resources[j] = jobs.get(j).resources().toArray();
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
