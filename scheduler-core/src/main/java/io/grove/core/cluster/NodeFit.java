package io.grove.core.cluster;

import io.grove.core.node.Node;
import io.grove.core.operation.Operation;
import io.grove.core.operation.TaskSpec;
import io.grove.core.resource.Resources;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/** Why an operation's jobs wait when no node could ever take them: a diagnostic for users. */
public final class NodeFit {

    private NodeFit() {
    }

    /**
     * The tasks of an operation with jobs waiting whose job fits on no online node of {@code tree}
     * (by its limits, empty or not, or by the disk it orders against the nodes' free disk), each
     * with what it asks for and the largest node's limits;
     * empty when every waiting job fits somewhere, or the tree has no online node at all.
     */
    public static List<String> tasksLargerThanEveryNode(Collection<Node> nodes, Operation operation, String tree) {
        List<Resources> online = new ArrayList<>();
        long mostDisk = 0;
        String noImages = null;
        for (Node node : nodes) {
            if (node.state() == Node.State.ONLINE && tree.equals(node.tree())) {
                online.add(node.limits());
                mostDisk = Math.max(mostDisk, node.condition().diskForJobs());
                noImages = node.condition().runsImages() ? "" : noImages == null ? node.id() + ": "
                        + node.condition().noImages() : noImages;
            }
        }
        List<String> tooLarge = new ArrayList<>();
        if (online.isEmpty()) {
            return tooLarge;
        }
        for (TaskSpec task : operation.spec().tasks().values()) {
            Resources job = task.jobResources();
            if (operation.pendingJobCount(task.name()) > 0 && online.stream().noneMatch(limits -> limits.dominates(job))) {
                Resources largest = online.stream().reduce(Resources.ZERO, Resources::max);
                tooLarge.add("task " + task.name() + ": a job asks for " + job + ", more than any online node of tree "
                        + tree + " has (at most " + largest + ")" + (job.gpu() > 0 ? gpusOut(nodes, tree) : ""));
            } else if (operation.pendingJobCount(task.name()) > 0 && task.diskSpace() > mostDisk) {
                tooLarge.add("task " + task.name() + ": no node has room for its disk: a job orders " + task.diskSpace()
                        + " bytes of disk_space, more than any online node of tree " + tree + " has free (at most "
                        + mostDisk + ")");
            } else if (operation.pendingJobCount(task.name()) > 0 && task.image() != null && noImages != null
                    && !noImages.isEmpty()) {
                tooLarge.add("task " + task.name() + ": its jobs run in image " + task.image() + ", and no online node of "
                        + "tree " + tree + " runs container images (" + noImages + ")");
            }
        }
        return tooLarge;
    }

    /** The GPUs out of service on the tree's online nodes, for a GPU task that fits nowhere. */
    static String gpusOut(Collection<Node> nodes, String tree) {
        List<String> out = new ArrayList<>();
        for (Node node : nodes) {
            if (node.state() == Node.State.ONLINE && tree.equals(node.tree())) {
                node.condition().gpusOutOfService().forEach(why -> out.add("node " + node.id() + " " + why));
            }
        }
        return out.isEmpty() ? "" : "; out of service: " + String.join("; ", out);
    }
}
