package io.grove.core.sim;

import io.grove.core.cluster.Cluster;
import io.grove.core.cluster.GangStatus;
import io.grove.core.fairshare.ElementShares;
import io.grove.core.node.Node;
import io.grove.core.operation.GangTopology;
import io.grove.core.operation.Job;
import io.grove.core.operation.Operation;
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
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The simulator's invariants, checked after every event: no node over capacity (as the scheduler
 * counts and as the machine runs), no job index running twice, usage equal to the sum of running
 * jobs at every pool, count limits held, no preemption ping-pong, no pool taken below its strong
 * guarantee by preemption, no gang running partially or outside its required domain.
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
        gangs(cluster, machines, out);
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

    /**
     * No gang runs partially — some ranks running while others pend — unless its plan is being
     * started or it is stopping to restart; no rank of a gang with a required level runs outside
     * the one domain of that level its other ranks run in.
     */
    private static void gangs(Cluster cluster, Collection<SimNode> machines, List<String> out) {
        Map<String, Set<String>> domains = new HashMap<>();
        for (SimNode machine : machines) {
            for (SimNode.RunningJob job : machine.running()) {
                Operation operation = cluster.registry().operation(job.operationId());
                GangTopology topology = operation == null ? GangTopology.NONE : operation.spec().topology();
                if (topology.required() && cluster.registry().runningJob(job.jobId()) != null) {
                    domains.computeIfAbsent(job.operationId(), id -> new TreeSet<>())
                            .add(String.valueOf(machine.topology().domain(topology.level())));
                }
            }
        }
        domains.forEach((operation, seen) -> {
            if (seen.size() > 1) {
                out.add("gang " + operation + " runs in " + seen + ", outside one domain of its required level");
            }
        });
        for (Operation operation : cluster.registry().operations()) {
            if (!operation.spec().gang() || operation.runningJobCount() == 0 || operation.pendingJobCount() == 0) {
                continue;
            }
            String tree = operation.runningJobsArray()[0].tree();
            GangStatus status = cluster.gang(tree, operation.id());
            boolean starting = status.plan() != null && !status.plan().complete();
            if (!starting && !status.restarting()) {
                out.add("gang " + operation.id() + " runs partially: " + operation.runningJobCount() + " ranks run, "
                        + operation.pendingJobCount() + " pend, with no plan being started and no restart");
            }
        }
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

    /**
     * No pool below its strong guarantee by preemption: the jobs a decision takes for a starving
     * operation (either starvation stage, or a gang's preemption) never bring a pool that is not
     * above the starving operation below its strong guarantee of the tree's main resource (the one
     * guarantees name; the others are inferred from it). Checked
     * before the decision is applied, on the usage of the running jobs.
     */
    static List<String> guarantees(Cluster cluster, Decision decision) {
        List<String> out = new ArrayList<>();
        if (decision.tree() == null || decision.preemptions().isEmpty()) {
            return out;
        }
        Map<String, double[]> taken = new HashMap<>();
        Map<String, String> preemptors = new HashMap<>();
        for (Decision.JobPreemption preemption : decision.preemptions()) {
            Job victim = cluster.registry().runningJob(preemption.jobId());
            if (victim == null || preemption.preemptorOperationId() == null
                    || preemption.reason() != Decision.PreemptionReason.STARVATION
                    && preemption.reason() != Decision.PreemptionReason.AGGRESSIVE_STARVATION) {
                continue;
            }
            Operation preemptor = cluster.registry().operation(preemption.preemptorOperationId());
            List<String> above = preemptor == null ? List.of()
                    : cluster.registry().pathsToRoot(preemptor).getOrDefault(decision.tree(), List.of());
            for (String pool : poolsOf(cluster, victim, decision.tree())) {
                if (!above.contains(pool)) {
                    add(taken.computeIfAbsent(pool, p -> new double[ResourceType.COUNT]), victim.resources());
                    preemptors.put(pool, preemption.preemptorOperationId());
                }
            }
        }
        if (taken.isEmpty()) {
            return out;
        }
        double[] total = new double[ResourceType.COUNT];
        for (Node node : cluster.nodes()) {
            if (decision.tree().equals(node.tree()) && node.state() == Node.State.ONLINE) {
                add(total, node.limits());
            }
        }
        Map<String, double[]> used = new HashMap<>();
        for (Operation operation : cluster.registry().operations()) {
            for (Job job : operation.runningJobsView()) {
                if (decision.tree().equals(job.tree())) {
                    for (String pool : poolsOf(cluster, job, decision.tree())) {
                        if (taken.containsKey(pool)) {
                            add(used.computeIfAbsent(pool, p -> new double[ResourceType.COUNT]), job.resources());
                        }
                    }
                }
            }
        }
        Map<String, ElementShares> elements = new HashMap<>();
        for (ElementShares element : cluster.elements(decision.tree())) {
            elements.put(element.id(), element);
        }
        ResourceType r = cluster.config().trees().get(decision.tree()).mainResource();
        taken.forEach((pool, freed) -> {
            ElementShares element = elements.get(pool);
            double[] usage = used.getOrDefault(pool, new double[ResourceType.COUNT]);
            double guarantee = element == null ? 0 : element.strongGuaranteeShare().get(r) * total[r.ordinal()];
            if (guarantee > 1e-9 && freed[r.ordinal()] > 0 && usage[r.ordinal()] - freed[r.ordinal()] < guarantee - 1e-6) {
                out.add("pool " + pool + " is taken below its strong guarantee of " + guarantee + " " + r.key()
                        + " (it uses " + usage[r.ordinal()] + ", " + freed[r.ordinal()] + " taken) for "
                        + preemptors.get(pool));
            }
        });
        return out;
    }

    /** The pools of a job's operation in {@code tree}, its own first, without the root. */
    private static List<String> poolsOf(Cluster cluster, Job job, String tree) {
        Operation operation = cluster.registry().operation(job.operationId());
        List<String> path = operation == null ? List.of() : cluster.registry().pathsToRoot(operation).getOrDefault(tree,
                List.of());
        return path.stream().filter(pool -> !pool.equals(PoolTreeConfig.ROOT)).toList();
    }

    private static void add(double[] to, Resources what) {
        double[] amounts = what.toArray();
        for (int r = 0; r < to.length; r++) {
            to[r] += amounts[r];
        }
    }
}
