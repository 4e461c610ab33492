package io.grove.core.cluster;

import io.grove.core.fairshare.FairShareInput;
import io.grove.core.fairshare.OperationDemand;
import io.grove.core.node.Node;
import io.grove.core.operation.Operation;
import io.grove.core.operation.OperationDependencies;
import io.grove.core.operation.OperationPreemption;
import io.grove.core.operation.OperationRegistry;
import io.grove.core.operation.TaskSpec;
import io.grove.core.operation.TreeOptions;
import io.grove.core.pool.PoolTree;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.resource.ResourceType;
import io.grove.core.resource.Resources;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The input of one tree's fair-share update, taken from the live state: the total of its online
 * nodes, each operation's demand (capped by its tag filter's nodes and by how memory is spread over
 * the nodes), the pools' tag-filter caps, and what the previous update left (integral volumes,
 * usage averages).
 */
final class UpdateInputs {

    private UpdateInputs() {
    }

    /** The input of an update of {@code prepared}'s tree under another {@code config}, for what-if answers. */
    static FairShareInput whatIf(PreparedUpdate prepared, PoolTreeConfig config, Collection<Node> nodes) {
        PoolTree shape = PoolTree.of(config);
        List<OperationDemand> kept = new ArrayList<>();
        for (OperationDemand demand : prepared.input().operations()) {
            if (shape.contains(demand.pool())) {
                kept.add(demand);
            }
        }
        return new FairShareInput(config, prepared.input().totalResources(), kept, prepared.input().integralState(), null,
                poolCaps(prepared.tree(), nodes, config), prepared.input().historicUsage());
    }

    /** The tag-filter caps of {@code config}'s pools over the online nodes of the tree. */
    static Map<String, Resources> poolCaps(String treeName, Collection<Node> nodes, PoolTreeConfig config) {
        return new TagFilterTotals(online(treeName, nodes)).poolCaps(config);
    }

    /** The tree's online nodes not drained: the ones its total is made of. */
    private static List<Node> online(String treeName, Collection<Node> nodes) {
        List<Node> online = new ArrayList<>();
        for (Node node : nodes) {
            if (treeName.equals(node.tree()) && node.state() == Node.State.ONLINE && node.drain() == null) {
                online.add(node);
            }
        }
        return online;
    }

    static PreparedUpdate prepare(String treeName, TreeState tree, Collection<Node> nodes,
            OperationRegistry registry, Instant now) {
        double[] total = new double[ResourceType.COUNT];
        List<Node> online = online(treeName, nodes);
        double[] nodeMemory = new double[online.size()];
        for (int n = 0; n < nodeMemory.length; n++) {
            Resources limits = online.get(n).limits();
            for (int r = 0; r < total.length; r++) {
                total[r] += limits.get(r);
            }
            nodeMemory[n] = limits.memory();
        }
        BestAllocationShare fit = new BestAllocationShare(nodeMemory);
        TagFilterTotals matching = new TagFilterTotals(online);
        List<OperationDemand> demands = new ArrayList<>();
        Map<String, Operation> operations = new HashMap<>();
        Map<String, Integer> pendingJobs = new HashMap<>();
        Map<String, String> neverStart = new HashMap<>(0);
        for (Operation operation : registry.operations()) {
            if (!operation.runsIn(treeName)) {
                continue;
            }
            if (!operation.spec().dependsOn().isEmpty() && waits(operation, registry, neverStart)) {
                continue;   // no demand, no fair share, no job starts until what it waits for ends
            }
            operations.put(operation.id(), operation);
            pendingJobs.put(operation.id(), operation.pendingJobCount());
            demands.add(demand(operation, treeName, fit, matching));
        }
        PoolTreeConfig config = registry.pools(treeName).effectiveConfig();
        tree.offers.shape(online.size(), config.preemption().preemptiveSchedulingBackoff());
        Double elapsed = tree.lastUpdate == null ? null
                : Math.max(0, Duration.between(tree.lastUpdate, now).toNanos() / 1e9);
        FairShareInput input = new FairShareInput(config, Resources.of(total), demands, tree.integralState, elapsed,
                matching.poolCaps(config), tree.historicUsage);
        return new PreparedUpdate(treeName, input, operations, pendingJobs, total, now, tree.workspace, neverStart);
    }

    /** Whether an operation waits for another (or never can start: then it is added to {@code neverStart}). */
    private static boolean waits(Operation operation, OperationRegistry registry, Map<String, String> neverStart) {
        String never = OperationDependencies.never(operation, registry, neverStart.keySet());
        if (never != null) {
            neverStart.put(operation.id(), never);
            return true;
        }
        return OperationDependencies.waitingFor(operation, registry) != null;
    }

    static Map<String, OperationPreemption> operationPreemption(
            Collection<Operation> operations) {
        Map<String, OperationPreemption> out = new HashMap<>();
        for (Operation operation : operations) {
            if (operation.spec().preemption() != OperationPreemption.NONE) {
                out.put(operation.id(), operation.spec().preemption());
            }
        }
        return out;
    }

    private static OperationDemand demand(Operation operation, String tree, BestAllocationShare fit,
            TagFilterTotals matching) {
        TreeOptions options = operation.spec().optionsFor(tree);
        Resources usage = operation.usageIn(tree);
        double smallestMemory = Double.POSITIVE_INFINITY;
        for (TaskSpec task : operation.spec().tasks().values()) {
            if (operation.pendingJobCount(task.name()) > 0) {
                smallestMemory = Math.min(smallestMemory, task.jobResources().memory());
            }
        }
        return new OperationDemand(operation.id(), operation.poolByTree().get(tree), options.weight(),
                usage.plus(operation.pendingResources()), usage,
                matching.cap(options.resourceLimits(), options.schedulingTagFilter()),
                Double.isInfinite(smallestMemory) ? null : fit.forJobMemory(smallestMemory),
                operation.spec().gang(), operation.submitTime(), operation.pendingJobCount());
    }

}
