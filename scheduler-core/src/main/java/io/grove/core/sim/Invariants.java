package io.grove.core.sim;

import io.grove.core.cluster.Cluster;
import io.grove.core.node.Node;
import io.grove.core.operation.Job;
import io.grove.core.operation.OperationCounts;
import io.grove.core.operation.PoolOperationCounts;
import io.grove.core.pool.PoolConfig;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.resource.ResourceType;
import io.grove.core.resource.Resources;
import io.grove.core.schedule.Decision;
import io.grove.core.schedule.SchedulingIndex;
import io.grove.core.schedule.UsageMismatches;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The simulator's invariants, checked after every event: no node over capacity (as the scheduler
 * counts and as the machine runs), no job index running twice, usage equal to the sum of running
 * jobs at every pool, count limits held, and no preemption ping-pong.
 */
final class Invariants {

    private Invariants() {
    }

    static List<String> check(Cluster cluster, Collection<SimNode> machines, boolean limitsMayBeExceeded) {
        List<String> out = new ArrayList<>();
        for (Node node : cluster.nodes()) {
            over(node.usage(), node.limits(), "scheduler's view of node " + node.id(), out);
        }
        Set<String> placed = new HashSet<>();
        for (SimNode machine : machines) {
            double[] used = new double[ResourceType.COUNT];
            for (SimNode.RunningJob job : machine.running()) {
                double[] r = job.resources().toArray();
                for (int i = 0; i < used.length; i++) {
                    used[i] += r[i];
                }
                String key = job.operationId() + "/" + job.task() + "#" + job.index();
                if (!placed.add(key)) {
                    out.add("job " + key + " runs twice (again as " + job.jobId() + " on " + machine.id() + ")");
                }
            }
            over(Resources.of(used), machine.limits(), "machine " + machine.id(), out);
        }
        for (String tree : cluster.treeNames()) {
            SchedulingIndex index = cluster.schedulingIndex(tree);
            if (index != null) {
                out.addAll(UsageMismatches.of(index));
            }
            if (!limitsMayBeExceeded) {
                checkCounts(cluster, tree, out);
            }
        }
        return out;
    }

    private static void over(Resources used, Resources limits, String what, List<String> out) {
        for (int r = 0; r < ResourceType.COUNT; r++) {
            if (used.get(r) > limits.get(r) + 1e-6) {
                out.add(what + " uses " + used.get(r) + " " + ResourceType.at(r).key() + " of " + limits.get(r));
            }
        }
    }

    private static void checkCounts(Cluster cluster, String tree, List<String> out) {
        OperationCounts counts = cluster.registry().counts(tree);
        List<String> pools = new ArrayList<>();
        pools.add(PoolTreeConfig.ROOT);
        collect(cluster.registry().pools(tree).effectiveConfig().pools(), pools);
        for (String pool : pools) {
            PoolOperationCounts c = counts.counts(pool);
            if (c.runningOperationCount() > c.maxRunningOperationCount()) {
                out.add("tree " + tree + ", pool " + pool + ": " + c.runningOperationCount()
                        + " running operations, limit " + c.maxRunningOperationCount());
            }
            if (c.operationCount() > c.maxOperationCount()) {
                out.add("tree " + tree + ", pool " + pool + ": " + c.operationCount() + " operations, limit "
                        + c.maxOperationCount());
            }
        }
    }

    private static void collect(List<PoolConfig> pools, List<String> into) {
        for (PoolConfig pool : pools) {
            into.add(pool.name());
            collect(pool.children(), into);
        }
    }

    /**
     * Ping-pong: a job started by preempting an operation must not be preempted for that same
     * operation while its own fair share has not dropped.
     */
    static List<String> pingPong(Cluster cluster, Decision decision) {
        List<String> out = new ArrayList<>();
        SchedulingIndex index = decision.tree() == null ? null : cluster.schedulingIndex(decision.tree());
        for (Decision.JobPreemption preemption : decision.preemptions()) {
            Job victim = cluster.registry().runningJob(preemption.jobId());
            if (victim == null || index == null || preemption.preemptorOperationId() == null) {
                continue;
            }
            if (victim.startedByPreempting().contains(preemption.preemptorOperationId())
                    && index.dominantFairShare(victim.operationId()) >= victim.preemptorFairShareAtStart() - 1e-9) {
                out.add("ping-pong: job " + victim.id() + " of " + victim.operationId() + " was started by preempting "
                        + preemption.preemptorOperationId() + " and is now preempted for it");
            }
        }
        return out;
    }
}
