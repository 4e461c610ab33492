package io.grove.core.cluster;

import io.grove.core.cluster.PendingCheck.Code;
import io.grove.core.fairshare.ElementShares;
import io.grove.core.fairshare.FairShareResult;
import io.grove.core.node.Node;
import io.grove.core.node.NodeFilter;
import io.grove.core.operation.Dependency;
import io.grove.core.operation.GangTopology;
import io.grove.core.operation.Job;
import io.grove.core.operation.JobCpu;
import io.grove.core.operation.Operation;
import io.grove.core.operation.OperationDependencies;
import io.grove.core.operation.PendingReason;
import io.grove.core.operation.TaskSpec;
import io.grove.core.operation.TreePools;
import io.grove.core.pool.GangReservations;
import io.grove.core.pool.PoolConfig;
import io.grove.core.pool.PoolPause;
import io.grove.core.pool.PoolTimeLimits;
import io.grove.core.preempt.StarvationStatus;
import io.grove.core.preempt.StarvationTracker;
import io.grove.core.resource.ResourceText;
import io.grove.core.resource.ResourceType;
import io.grove.core.resource.Resources;
import io.grove.core.schedule.GangPlan;
import io.grove.core.schedule.GangPlanner;
import io.grove.core.schedule.GangReservation;
import io.grove.core.schedule.PreemptionProtection;
import io.grove.core.schedule.SchedulingIndex;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * "Why is it pending?": for each tree of an operation, the checks the scheduler makes before it
 * starts the operation's next job, in its order, each saying whether it blocks and why — count
 * limits, resource limits on the operation's path, its fair share level by level, the nodes that
 * match it and their room, and its starvation. Read on the scheduler's thread from the last
 * update's results and the live nodes; it changes nothing.
 */
public final class PendingExplainer {

    private static final double EPSILON = 1e-9;

    private PendingExplainer() {
    }

    /** The checks of one tree; the verdict is the first that blocks. */
    public record TreeExplanation(String tree, String pool, List<PendingCheck> checks) {

        public PendingCheck verdict() {
            for (PendingCheck check : checks) {
                if (check.blocks()) {
                    return check;
                }
            }
            return checks.get(checks.size() - 1);
        }
    }

    /**
     * When its running jobs were throttled by their CPU quota in most periods (as their nodes
     * counted): they would go faster with more cpu ordered.
     */
    static PendingCheck throttled(Operation operation) {
        int counted = 0;
        int throttled = 0;
        double share = 0;
        for (Job job : operation.runningJobs()) {
            JobCpu cpu = job.cpu();
            if (cpu != null && cpu.throttledShare() >= 0) {
                counted++;
                share += cpu.throttledShare();
                throttled += cpu.mostlyThrottled() ? 1 : 0;
            }
        }
        if (counted == 0 || share / counted < 0.5) {
            return null;
        }
        double ordered = operation.runningJobs().iterator().next().resources().cpu();
        return PendingCheck.of(Code.CPU_THROTTLED, false, String.format(Locale.ROOT,
                "its running jobs were throttled %.0f%% of the time by their cpu quota (%d of %d jobs mostly): "
                        + "order more cpu than %s", 100 * share / counted, throttled, counted, trim(ordered)));
    }

    private static String trim(double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
    }

    public static List<TreeExplanation> explain(ClusterView cluster, Operation operation) {
        List<TreeExplanation> trees = new ArrayList<>();
        operation.poolByTree().forEach((tree, pool) -> trees.add(new TreeExplanation(tree, pool,
                checks(cluster, operation, tree))));
        return trees;
    }

    private static List<PendingCheck> checks(ClusterView cluster, Operation operation, String tree) {
        List<PendingCheck> checks = new ArrayList<>();
        if (operation.state().isFinished()) {
            checks.add(PendingCheck.of(Code.FINISHED, true, "the operation is " + lower(operation.state())
                    + ": nothing more starts"));
            return checks;
        }
        PendingCheck throttled = throttled(operation);
        if (throttled != null) {
            checks.add(throttled);
        }
        TaskSpec task = nextTask(operation);
        if (task == null) {
            checks.add(PendingCheck.of(Code.NOTHING_PENDING, true, "no job waits: every job runs or has ended"));
            return checks;
        }
        PendingReason queued = cluster.registry().pendingReason(operation.id(), tree);
        if (queued != null) {
            checks.add(new PendingCheck(Code.COUNT_LIMIT, true, queued.message(), queued.pool(), null, queued.limit(), queued.position(),
                    null, null, null, null));
            return checks;
        }
        PoolPause pause = cluster.pauseOf(tree, operation);
        if (pause != null) {
            checks.add(new PendingCheck(Code.POOL_PAUSED, true, pause.describe(), pause.pool(), null, null, null,
                    null, null, null, null));
            return checks;
        }
        Dependency waiting = OperationDependencies.waitingFor(operation, cluster.registry());
        String never = waiting != null ? null : OperationDependencies.never(operation, cluster.registry());
        if (waiting != null || never != null) {
            checks.add(PendingCheck.of(Code.DEPENDENCY, true, waiting != null
                    ? OperationDependencies.describeWait(waiting, cluster.registry()) : never));
            return checks;
        }
        FairShareResult result = cluster.fairShare(tree);
        ElementShares own = result == null ? null : result.elements().get(operation.id());
        if (own == null) {
            checks.add(PendingCheck.of(Code.NO_FAIR_SHARE_YET, true,
                    "no fair-share update has included it yet; the next one will (every update period)"));
            return checks;
        }
        Resources job = task.jobResources();
        List<ElementShares> path = path(result, own);
        List<Node> online = online(cluster, tree);
        // the tree's total as the update has it: drained nodes left out
        Resources total = online.stream().filter(node -> node.drain() == null).map(Node::limits)
                .reduce(Resources.ZERO, Resources::plus);
        List<PendingCheck> nodes = nodes(cluster, operation, tree, path, online, job, task.diskSpace(), task.image());
        boolean noneMatch = nodes.get(0).code() == Code.NO_MATCHING_NODE;
        // with a tag filter, limits are capped by the matching nodes: with none, the nodes are the reason
        checks.add(noneMatch ? new PendingCheck(Code.RESOURCE_LIMITS, false, "its limits are capped by the resources "
                + "of the nodes that match its tags, and none does", null, null, null, null, job, null, null, null)
                : limits(path, job, total));
        checks.add(fairShare(path));
        checks.addAll(nodes);
        PendingCheck starvation = starvation(cluster, operation.id(), tree);
        if (starvation != null) {
            checks.add(starvation);
        }
        if (operation.spec().gang()) {
            checks.add(gang(cluster, operation, tree));
        }
        if (checks.stream().noneMatch(PendingCheck::blocks)) {
            checks.add(new PendingCheck(Code.SCHEDULABLE, false, "nothing keeps its next job from starting: the next "
                    + "heartbeat of a matching node with room for " + describe(job, job) + " starts it", null, null, null, null, job, null,
                    null, null));
        }
        return checks;
    }

    /** Where a gang's plan stands, or why it waits for room for every rank at once. */
    private static PendingCheck gang(ClusterView cluster, Operation operation, String tree) {
        GangStatus status = cluster.gang(tree, operation.id());
        GangPlan plan = status.plan();
        if (plan != null) {
            List<String> waitingFor = new ArrayList<>();
            for (GangPlan.Rank rank : plan.ranks()) {
                if (!plan.startedJobs().containsKey(rank.rank()) && !waitingFor.contains(rank.nodeId())) {
                    waitingFor.add(rank.nodeId());
                }
            }
            return PendingCheck.of(Code.GANG, false, "planned at " + plan.planned() + ": " + plan.describe() + "; "
                    + (waitingFor.isEmpty() ? "every rank started" : plan.startedJobs().size() + " of "
                    + plan.ranks().size() + " ranks started, waiting for " + String.join(", ", waitingFor)
                    + " to take theirs (the plan is dropped whole at " + plan.deadline() + ")"));
        }
        if (operation.runningJobCount() > 0) {
            return PendingCheck.of(Code.GANG, true, "its ranks are stopping to start again as a whole ("
                    + operation.runningJobCount() + " still running)");
        }
        GangPlanner.Waiting waiting = status.waiting();
        GangTopology topology = operation.spec().topology();
        return waiting == null
                ? PendingCheck.of(Code.GANG, false, "a gang of " + operation.pendingJobCount() + " ranks (topology: "
                        + topology.describe() + "): planned whole at the next try")
                : PendingCheck.of(Code.GANG, true, "a gang starts every rank at once or none: it " + waiting.why()
                        + reservation(cluster, tree, status));
    }

    /** What a waiting gang's reservation holds, or when it gets one (docs/scheduling.md#reservations-with-backfill). */
    private static String reservation(ClusterView cluster, String tree, GangStatus status) {
        if (status.reservation() != null) {
            return "; it holds a reservation since " + status.reservation().since() + ": "
                    + status.reservation().describe() + "; jobs that could still run then do not start there";
        }
        if (status.starvingSince() == null) {
            return "";
        }
        GangReservations settings = cluster.registry().pools(tree).effectiveConfig().preemption().gangReservations();
        if (!settings.enabled()) {
            return "; it has starved for room since " + status.starvingSince() + ", and tree " + tree
                    + " makes no reservations (max_gang_reservations 0)";
        }
        Instant due = status.starvingSince().plus(settings.timeout());
        int held = cluster.reservations(tree).size();
        return "; it has starved for room since " + status.starvingSince() + ": it gets a reservation at " + due
                + " (gang_reservation_timeout " + PoolTimeLimits.text(settings.timeout()) + ")"
                + (held >= settings.max() ? ", once one of the tree's " + held + " reservations (max_gang_reservations) goes"
                        : "");
    }

    private static TaskSpec nextTask(Operation operation) {
        for (TaskSpec task : operation.spec().tasks().values()) {
            if (operation.pendingJobCount(task.name()) > 0) {
                return task;
            }
        }
        return null;
    }

    /** The operation's element, its pool, up to the root. */
    private static List<ElementShares> path(FairShareResult result, ElementShares own) {
        List<ElementShares> path = new ArrayList<>();
        for (ElementShares at = own; at != null; at = at.parent() == null ? null : result.elements().get(at.parent())) {
            path.add(at);
        }
        return path;
    }

    private static List<Node> online(ClusterView cluster, String tree) {
        List<Node> online = new ArrayList<>();
        for (Node node : cluster.nodes()) {
            if (node.state() == Node.State.ONLINE && tree.equals(node.tree())) {
                online.add(node);
            }
        }
        return online;
    }

    /** The first element of the path (nearest the operation) with no room for one more job under its limits. */
    private static PendingCheck limits(List<ElementShares> path, Resources job, Resources total) {
        for (ElementShares element : path) {
            double[] room = new double[ResourceType.values().length];
            List<String> short_ = new ArrayList<>();
            for (ResourceType r : ResourceType.values()) {
                double limitShare = element.limitsShare().get(r);
                double all = total.get(r);
                if (all <= 0 || limitShare >= 1 - EPSILON) {
                    room[r.ordinal()] = Double.POSITIVE_INFINITY;
                    continue;
                }
                room[r.ordinal()] = Math.max(0, (limitShare - element.usageShare().get(r)) * all);
                if (job.get(r) > room[r.ordinal()] + EPSILON * Math.max(1, all)) {
                    short_.add(String.format(Locale.ROOT, "%s: %.4g left under its limit, a job asks for %.4g",
                            r.key(), room[r.ordinal()], job.get(r)));
                }
            }
            if (!short_.isEmpty()) {
                return new PendingCheck(Code.RESOURCE_LIMITS, true, kind(element) + " " + element.id()
                        + " is at its resource limits (" + String.join("; ", short_) + ")",
                        element.id(), null, null, null, job, Resources.of(room), null, null);
            }
        }
        return new PendingCheck(Code.RESOURCE_LIMITS, false, "no element of its path is at its resource limits",
                null, null, null, null, job, null, null, null);
    }

    private static PendingCheck fairShare(List<ElementShares> path) {
        List<PendingCheck.Level> levels = new ArrayList<>();
        for (ElementShares element : path) {
            levels.add(new PendingCheck.Level(element.id(), element.fairShare().total().max(), element.usageShare().max(),
                    element.demandShare().max(), element.satisfactionRatio()));
        }
        PendingCheck.Level own = levels.get(0);
        String message = own.usageShare() + EPSILON < own.fairShare()
                ? String.format(Locale.ROOT, "below its fair share (usage %.1f%% of the tree, fair share %.1f%%): "
                        + "it comes first in its pool", 100 * own.usageShare(), 100 * own.fairShare())
                : String.format(Locale.ROOT, "at or above its fair share (usage %.1f%%, fair share %.1f%%): it gets "
                        + "more only where others do not want it", 100 * own.usageShare(), 100 * own.fairShare());
        return new PendingCheck(Code.FAIR_SHARE, false, message, null, null, null, null, null, null, levels, null);
    }

    /** The nodes of the tree that match the operation's and its pools' tag filters, and their room. */
    private static List<PendingCheck> nodes(ClusterView cluster, Operation operation, String tree, List<ElementShares> path,
            List<Node> online, Resources job, long disk, String image) {
        List<NodeFilter> filters = filters(cluster, operation, tree, path);
        List<Node> matching = new ArrayList<>();
        for (Node node : online) {
            if (filters.stream().allMatch(filter -> filter.matches(node.tags()))) {
                matching.add(node);
            }
        }
        List<PendingCheck> checks = new ArrayList<>();
        if (matching.isEmpty()) {
            checks.add(PendingCheck.of(Code.NO_MATCHING_NODE, true, online.isEmpty()
                    ? "tree " + tree + " has no online node"
                    : "none of the " + online.size() + " online nodes of tree " + tree + " matches its scheduling tag filter"));
            return checks;
        }
        if (image != null && matching.stream().noneMatch(node -> node.condition().runsImages())) {
            List<String> why = matching.stream().limit(3).map(n -> n.id() + ": " + n.condition().noImages()).toList();
            checks.add(PendingCheck.of(Code.NO_IMAGE_NODE, true, "its jobs run in image " + image + ", and none of the "
                    + matching.size() + " matching nodes runs container images (" + String.join("; ", why)
                    + (matching.size() > 3 ? "; ..." : "") + ")"));
            return checks;
        }
        if (image != null) {
            matching.removeIf(node -> !node.condition().runsImages());
        }
        Resources largest = matching.stream().map(Node::limits).reduce(Resources.ZERO, Resources::max);
        if (matching.stream().noneMatch(node -> node.limits().dominates(job))) {
            checks.add(new PendingCheck(Code.JOB_LARGER_THAN_EVERY_NODE, true, "a job asks for " + describe(job, job)
                    + ", more than any of the " + matching.size() + " matching nodes has (at most "
                    + describe(largest, job) + ")" + (job.gpu() > 0 ? NodeFit.gpusOut(matching, tree) : ""), null,
                    null, null, null, job, largest, null, null));
            return checks;
        }
        if (disk > 0 && matching.stream().noneMatch(node -> node.condition().diskForJobs() >= disk)) {
            Node most = matching.stream().max(Comparator.comparingLong(n -> n.condition().diskForJobs())).orElseThrow();
            checks.add(PendingCheck.of(Code.NO_ROOM_FOR_DISK, true, "no node has room for its disk: a job orders " + disk
                    + " bytes of disk_space; the most any of the " + matching.size() + " matching nodes has free is "
                    + most.condition().diskForJobs() + " bytes, on " + most.id()));
            return checks;
        }
        List<Node> starting = matching.stream().filter(Node::schedulable).toList();
        if (starting.isEmpty()) {
            List<String> why = matching.stream().limit(3).map(Node::unschedulable).toList();
            checks.add(PendingCheck.of(Code.NO_SCHEDULABLE_NODE, true, "none of the " + matching.size()
                    + " matching nodes starts jobs now (" + String.join("; ", why) + (matching.size() > 3 ? "; ..." : "")
                    + ")"));
            return checks;
        }
        Node roomiest = null;
        double best = -1;
        Node reserved = null;
        for (Node node : starting) {
            Resources free = node.limits().minusClamped(node.usage());
            double fit = fit(free, job);
            if (fit >= 1 - EPSILON && cluster.reservationOn(node) != null) {
                reserved = reserved == null ? node : reserved;
                continue;   // room a gang holds: said below unless a node without a reservation has room
            }
            if (fit > best) {
                best = fit;
                roomiest = node;
            }
        }
        if (reserved != null && (roomiest == null || best < 1 - EPSILON)) {
            GangReservation holding = cluster.reservationOn(reserved);
            checks.add(new PendingCheck(Code.NODES_FULL, true, "the nodes with room for a job of " + describe(job, job)
                    + " are reserved for starving gangs: node " + reserved.id() + " for gang " + holding.operationId()
                    + " (" + holding.describe() + "); a job starts there only if its time limit ends before the "
                    + "gang's predicted start, or it fits beside the gang", null, reserved.id(), null, null, job,
                    reserved.limits().minusClamped(reserved.usage()), null, null));
            return checks;
        }
        Resources free = roomiest.limits().minusClamped(roomiest.usage());
        boolean full = best < 1 - EPSILON;
        checks.add(new PendingCheck(Code.NODES_FULL, full, full
                ? "no matching node has room for a job of " + describe(job, job) + " now; the most room is "
                        + describe(free, job) + " on " + roomiest.id() + " (" + starting.size() + " matching nodes that start jobs)"
                : "node " + roomiest.id() + " has room for it (" + describe(free, job) + " free)",
                null, roomiest.id(), null, null, job, free, null, null));
        return checks;
    }

    /** How many of {@code job} fit in {@code free}, as a fraction on its scarcest resource. */
    private static double fit(Resources free, Resources job) {
        double fit = Double.POSITIVE_INFINITY;
        for (ResourceType r : ResourceType.values()) {
            if (job.get(r) > 0) {
                fit = Math.min(fit, free.get(r) / job.get(r));
            }
        }
        return fit;
    }

    private static List<NodeFilter> filters(ClusterView cluster, Operation operation, String tree, List<ElementShares> path) {
        List<NodeFilter> filters = new ArrayList<>();
        filters.add(NodeFilter.parse(operation.spec().optionsFor(tree).schedulingTagFilter()));
        TreePools pools = cluster.registry().pools(tree);
        for (ElementShares element : path.subList(1, path.size())) {
            PoolConfig config = pools != null && pools.contains(element.id()) ? pools.configOf(element.id()) : null;
            if (config != null) {
                filters.add(NodeFilter.parse(config.schedulingTagFilter()));
            }
        }
        return filters;
    }

    private static PendingCheck starvation(ClusterView cluster, String id, String tree) {
        StarvationStatus status = cluster.starving(tree).getOrDefault(id, StarvationStatus.NON_STARVING);
        StarvationTracker.Below below = cluster.belowFairShare(tree, id);
        if (status != StarvationStatus.NON_STARVING) {
            String protectedJobs = "";
            SchedulingIndex index = cluster.schedulingIndex(tree);
            Instant lastUpdate = cluster.lastUpdate(tree);
            if (index != null && lastUpdate != null) {
                PreemptionProtection protection = PreemptionProtection.of(index, lastUpdate);
                if (protection.jobs() > 0) {
                    protectedJobs = "; " + protection.jobs() + " job(s) are protected by min_job_runtime_before_preemption, "
                            + "the first until " + protection.firstFree();
                }
            }
            return new PendingCheck(Code.STARVATION, false, lower(status).replace('_', ' ')
                    + " since " + (below == null ? "the last update" : below.starvesAt())
                    + ": preemption may take jobs of operations above their fair share to make room for it" + protectedJobs,
                    null, null, null, null, null, null, null, below == null ? null : below.starvesAt());
        }
        if (below != null) {
            return new PendingCheck(Code.STARVATION, false, "below its fair share since " + below.since()
                    + "; it starves at " + below.starvesAt() + " if it is still below then, and preemption may start", null,
                    null, null, null, null, null, null, below.starvesAt());
        }
        return null;
    }

    static String describe(Resources amounts, Resources job) {
        return ResourceText.describe(amounts, job);
    }

    private static String kind(ElementShares element) {
        return element.kind().name().toLowerCase(Locale.ROOT);
    }

    private static String lower(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }
}
