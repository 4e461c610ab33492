package io.grove.core.cluster;

import io.grove.core.node.Node;
import io.grove.core.node.NodeFilter;
import io.grove.core.operation.OperationSpec;
import io.grove.core.operation.SubmitError;
import io.grove.core.operation.SubmitException;
import io.grove.core.operation.TaskSpec;
import io.grove.core.resource.ResourceText;
import io.grove.core.resource.Resources;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Refuses at submission an operation whose job no node could ever run, as Slurm refuses a job
 * larger than any node of its partition: in every tree of the operation, a task's job asks for more
 * than the largest node that matches the operation's scheduling tag filter has, empty (a node's
 * size: the most it has offered since the scheduler came to know it). Only nodes that said what
 * they have count (a node not heard from since a restart says nothing yet); a tree with none is no
 * reason to refuse, and an operation that fits in one of its trees is accepted.
 */
public final class SubmitFit {

    private SubmitFit() {
    }

    /** @throws SubmitException ({@link SubmitError#INVALID_SPEC}) saying which task asks for what, and the largest node */
    public static void check(ClusterView cluster, OperationSpec spec) {
        List<String> trees = spec.poolTrees().isEmpty() ? List.of(cluster.registry().defaultTree()) : spec.poolTrees();
        List<String> refusals = new ArrayList<>();
        for (String tree : trees) {
            NodeFilter filter = NodeFilter.parse(spec.optionsFor(tree).schedulingTagFilter());
            List<Resources> known = new ArrayList<>();
            for (Node node : cluster.nodes()) {
                // its size: what it offers now may be less for a while (a Resource Broker's tasks)
                if (tree.equals(node.tree()) && !node.peakLimits().equals(Resources.ZERO) && filter.matches(node.tags())) {
                    known.add(node.peakLimits());
                }
            }
            if (known.isEmpty()) {
                return;   // nothing to judge this tree by: it may take the operation
            }
            String refusal = refusal(spec, tree, known);
            if (refusal == null) {
                return;
            }
            refusals.add(refusal);
        }
        if (!refusals.isEmpty()) {
            throw new SubmitException(SubmitError.INVALID_SPEC, String.join("; ", refusals)
                    + ": no node could ever run it (ask for less, or add a larger node)", Map.of("pool_tree", trees.get(0)));
        }
    }

    private static String refusal(OperationSpec spec, String tree, List<Resources> known) {
        Resources largest = known.stream().reduce(Resources.ZERO, Resources::max);
        for (TaskSpec task : spec.tasks().values()) {
            Resources job = task.jobResources();
            if (known.stream().noneMatch(limits -> limits.dominates(job))) {
                return "task " + task.name() + ": a job asks for " + ResourceText.describe(job, job) + ", more than any of the " + known.size()
                        + " node(s) of tree " + tree + (isBlank(spec.optionsFor(tree).schedulingTagFilter()) ? ""
                                : " that match its scheduling tag filter") + " has (at most " + ResourceText.describe(largest, job) + ")";
            }
        }
        return null;
    }

    private static boolean isBlank(String filter) {
        return filter == null || filter.isBlank();
    }
}
