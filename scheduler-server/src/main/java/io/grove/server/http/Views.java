package io.grove.server.http;

import static io.grove.server.http.ApiValues.amounts;
import static io.grove.server.http.ApiValues.lower;

import io.grove.api.Amounts;
import io.grove.api.ElementView;
import io.grove.api.JobView;
import io.grove.api.NodeView;
import io.grove.api.OperationDetails;
import io.grove.api.OperationSummary;
import io.grove.api.PoolView;
import io.grove.api.Progress;
import io.grove.api.ReservationView;
import io.grove.api.Shortfall;
import io.grove.core.cluster.Cluster;
import io.grove.core.cluster.ClusterView;
import io.grove.core.cluster.NodeFit;
import io.grove.core.fairshare.ElementShares;
import io.grove.core.fairshare.FairShareResult;
import io.grove.core.node.Node;
import io.grove.core.operation.Dependency;
import io.grove.core.operation.Job;
import io.grove.core.operation.JobState;
import io.grove.core.operation.Operation;
import io.grove.core.operation.OperationDependencies;
import io.grove.core.operation.OperationPreemption;
import io.grove.core.operation.PendingReason;
import io.grove.core.operation.PoolOperationCounts;
import io.grove.core.operation.TreePools;
import io.grove.core.pool.IntegralGuaranteesConfig;
import io.grove.core.pool.PoolConfig;
import io.grove.core.pool.PoolPause;
import io.grove.core.preempt.StarvationStatus;
import io.grove.core.schedule.GangReservation;
import io.grove.server.net.NodeAddresses;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/** The API's records of the scheduler's state, built on the scheduler's thread. */
final class Views {

    private final NodeAddresses addresses;

    Views(NodeAddresses addresses) {
        this.addresses = addresses;
    }

    static String time(Instant at) {
        return at == null ? null : at.toString();
    }

    OperationSummary operationSummary(Operation operation, ClusterView cluster) {
        String tree = operation.poolByTree().keySet().iterator().next();
        PendingReason pending = cluster.registry().pendingReason(operation.id(), tree);
        io.grove.api.PendingReason reason = pending != null ? pendingReason(pending) : null;
        PoolPause pause = operation.state().isFinished() ? null : cluster.pauseOf(tree, operation);
        Dependency waiting = operation.spec().dependsOn().isEmpty() ? null
                : OperationDependencies.waitingFor(operation, cluster.registry());
        if (pause != null && (pending == null || !io.grove.api.PendingReason.COUNT_LIMIT.equals(reason.code()))) {
            reason = new io.grove.api.PendingReason(io.grove.api.PendingReason.POOL_PAUSED, tree, pause.pool(), null, null,
                    pause.describe() + "; an administrator resumes it with grove pools resume " + pause.pool());
        } else if (pending == null && !operation.state().isFinished() && waiting != null) {
            reason = new io.grove.api.PendingReason(io.grove.api.PendingReason.DEPENDENCY, tree, null, null, null,
                    OperationDependencies.describeWait(waiting, cluster.registry()));
        } else if (pending == null && !operation.state().isFinished()) {
            List<String> tooLarge = NodeFit.tasksLargerThanEveryNode(cluster.nodes(), operation, tree);
            if (!tooLarge.isEmpty()) {
                reason = new io.grove.api.PendingReason(io.grove.api.PendingReason.TOO_LARGE, tree, null, null, null,
                        String.join("; ", tooLarge));
            }
        }
        ElementShares shares = shares(cluster, tree, operation.id());
        String state = lower(operation.state());
        Double fairShare = shares == null ? null : shares.fairShare().total().max();
        Double usageShare = shares == null ? null : shares.usageShare().max();
        String starvation = shares == null ? null : starvation(cluster, tree, operation.id());
        Progress progress = progress(operation);
        return new OperationSummary(operation.id(), operation.user(), operation.spec().title(), state,
                operation.poolByTree(), progress, time(operation.submitTime()), time(operation.finishTime()),
                reason, fairShare, usageShare, shares == null ? null : shares.demandShare().max(), starvation,
                reason == null ? Shortfall.of(state, fairShare, usageShare, starvation, progress.pending())
                        : null);
    }

    OperationDetails operation(Operation operation, ClusterView cluster, boolean mayReadOutput) {
        OperationPreemption own = operation.spec().preemption();
        Map<String, OperationDetails.InTree> trees = new LinkedHashMap<>();
        List<OperationDetails.Alert> alerts = new ArrayList<>();
        for (Map.Entry<String, String> placed : operation.poolByTree().entrySet()) {
            String tree = placed.getKey();
            String tagFilter = operation.spec().optionsFor(tree).schedulingTagFilter();
            PendingReason pending = cluster.registry().pendingReason(operation.id(), tree);
            if (pending != null) {
                alerts.add(new OperationDetails.Alert("operation_pending", pending.message()));
            }
            ElementShares shares = shares(cluster, tree, operation.id());
            trees.put(tree, new OperationDetails.InTree(placed.getValue(),
                    tagFilter == null || tagFilter.isEmpty() ? null : tagFilter, operation.runsIn(tree),
                    amounts(operation.usageIn(tree)), amounts(operation.usageIn(tree).plus(operation.pendingResources())),
                    pending == null ? null : pendingReason(pending),
                    shares == null ? null : ApiValues.element(shares),
                    shares == null ? null : starvation(cluster, tree, operation.id())));
        }
        return new OperationDetails(operationSummary(operation, cluster), lower(operation.spec().type()),
                operation.spec().weight(), lower(operation.spec().preemptionMode()), operation.spec().maxFailedJobCount(),
                own.fairShareStarvationTolerance(),
                own.fairShareStarvationTimeoutMillis() == null ? null : own.fairShareStarvationTimeoutMillis() / 1000.0 + "s",
                own.nonPreemptibleResourceUsageThreshold() == null ? null
                        : amounts(own.nonPreemptibleResourceUsageThreshold()),
                JobOutput.forReader(operation.finalMessage(), mayReadOutput), trees, alerts, images(operation),
                GangViews.of(operation, cluster));
    }

    /** The image of each task that runs in one, in spec order. */
    private static Map<String, String> images(Operation operation) {
        Map<String, String> images = new LinkedHashMap<>();
        operation.spec().tasks().values().forEach(task -> {
            if (task.image() != null) {
                images.put(task.name(), task.image());
            }
        });
        return images;
    }

    static io.grove.api.PendingReason pendingReason(PendingReason reason) {
        return new io.grove.api.PendingReason(io.grove.api.PendingReason.COUNT_LIMIT, reason.tree(), reason.pool(),
                reason.limit(), reason.position(), reason.message());
    }

    static Progress progress(Operation operation) {
        return new Progress(operation.spec().jobCount(), operation.pendingJobCount(), operation.runningJobCount(),
                operation.completedJobCount(), operation.failedJobCount(), operation.abortedJobCount());
    }

    /**
     * A job of {@code operation} as {@code mayReadOutput} says its reader may see it: with or without
     * what it printed.
     */
    JobView job(Job job, Operation operation, boolean mayReadOutput) {
        return new JobView(job.id(), job.operationId(), job.task().name(), job.index(), job.attempt(),
                preparing(job) != null ? "preparing" : lower(job.state()),
                job.nodeId(), addresses.of(job.nodeId()), job.tree(), amounts(job.resources()), time(job.startTime()),
                time(job.finishTime()), lower(job.endReason()), JobOutput.forReader(job.message(), mayReadOutput),
                job.devices().isEmpty() ? null : job.devices(),
                job.cpu() == null ? null : job.cpu().cpuSeconds(),
                job.cpu() == null || job.cpu().throttledSeconds() < 0 ? null : job.cpu().throttledSeconds(),
                job.cpu() == null || job.cpu().throttledShare() < 0 ? null : job.cpu().throttledShare(),
                preparing(job), job.task().image(),
                job.status() == null ? null : job.status().imageDigest(),
                job.status() == null || job.status().imagePullMs() < 0 ? null : job.status().imagePullMs(),
                job.preemptedFor() == null ? null : new JobView.PreemptedFor(job.preemptedFor().reason(),
                        job.preemptedFor().operationId(), job.preemptedFor().pool()),
                GangViews.rank(operation, job), time(job.lastCheckpoint()),
                job.lostWorkMs() < 0 ? null : job.lostWorkMs() / 1000.0);
    }

    /** What a running job waits for on its node before its process starts, or {@code null}. */
    private static String preparing(Job job) {
        return job.state() == JobState.RUNNING && job.status() != null
                ? job.status().preparing() : null;
    }

    PoolView pool(ClusterView cluster, String tree, ElementShares shares) {
        PoolOperationCounts counts = cluster.registry().counts(tree).counts(shares.id());
        TreePools pools = cluster.registry().pools(tree);
        PoolConfig config = pools.contains(shares.id()) ? pools.configOf(shares.id()) : null;
        ElementView element = ApiValues.element(shares);
        IntegralGuaranteesConfig integral = config == null ? null : config.integralGuarantees();
        if (integral != null) {
            element = element.withIntegralGuaranteeType(lower(integral.guaranteeType()));
        }
        return new PoolView(element, shares.id(),
                new PoolView.Operations(counts.operationCount(), counts.runningOperationCount(),
                        counts.lightweightRunningOperationCount(), counts.pendingOperationCount(),
                        counts.maxOperationCount(), counts.maxRunningOperationCount()),
                starvation(cluster, tree, shares.id()), pools.isEphemeral(shares.id()),
                config == null ? null : lower(config.mode()),
                config == null ? null : amounts(config.strongGuaranteeResources()),
                config == null ? null : amounts(config.resourceLimits()),
                config == null || config.schedulingTagFilter().isEmpty() ? null : config.schedulingTagFilter(),
                integral == null || integral.resourceFlow().isEmpty() ? null : amounts(integral.resourceFlow()),
                integral == null || integral.burstGuaranteeResources().isEmpty() ? null
                        : amounts(integral.burstGuaranteeResources()),
                paused(cluster, tree, shares.id()));
    }

    /** The pause that holds {@code pool} (its own or an ancestor's), or {@code null}. */
    static PoolView.Paused paused(ClusterView cluster, String tree, String pool) {
        Map<String, PoolPause> pauses = cluster.pauses(tree);
        TreePools pools = cluster.registry().pools(tree);
        if (pauses.isEmpty() || pools == null || !pools.contains(pool)) {
            return null;
        }
        for (String at : pools.pathToRoot(pool)) {
            PoolPause pause = pauses.get(at);
            if (pause != null) {
                return new PoolView.Paused(pause.pool(), pause.drain(), pause.by(), pause.since().toString());
            }
        }
        return null;
    }

    String nodeAddress(String nodeId) {
        return addresses.of(nodeId);
    }

    /** Where the scheduler reads from a node's agent: its connection's address, at the port it gave. */
    String agentAddress(String nodeId) {
        return addresses.agent(nodeId);
    }

    /** A node, its topology read in its tree's {@code levels} (widest first), and the reservation holding it. */
    NodeView node(Node node, List<String> levels, GangReservation reservedFor) {
        return new NodeView(node.id(), lower(node.state()), node.tree(), addresses.of(node.id()), node.treeProblem(),
                List.copyOf(new TreeSet<>(node.tags())), amounts(node.limits()), amounts(node.usage()), node.jobs().size(),
                time(node.lastHeartbeat()), node.condition().diskSpaceFree() < 0 ? null : node.condition().diskSpaceFree(),
                node.unschedulable(),
                node.condition().gpusOutOfService().isEmpty() ? null : node.condition().gpusOutOfService(),
                node.condition().noImages(), node.topology().domains(),
                levels.isEmpty() ? null : node.topology().path(levels), node.topology().missing(levels),
                reservation(reservedFor), node.drain() == null ? null : new NodeView.Drained(node.drain().reason(),
                        node.drain().now(), node.drain().by(), time(node.drain().since())));
    }

    /** A gang's reservation as the API shows it; {@code null} for none. */
    static ReservationView reservation(GangReservation reservation) {
        if (reservation == null) {
            return null;
        }
        Map<String, Amounts> nodes = new TreeMap<>();
        reservation.nodes().forEach((node, needs) -> nodes.put(node, amounts(needs)));
        return new ReservationView(reservation.operationId(), reservation.domain(), nodes, time(reservation.since()),
                reservation.start() == null ? null : time(reservation.start()));
    }

    private static String starvation(ClusterView cluster, String tree, String id) {
        return lower(cluster.starving(tree).getOrDefault(id, StarvationStatus.NON_STARVING));
    }

    static ElementShares shares(ClusterView cluster, String tree, String id) {
        FairShareResult result = cluster.fairShare(tree);
        return result == null ? null : result.elements().get(id);
    }
}
