package io.grove.core.forecast;

import io.grove.core.cluster.Cluster;
import io.grove.core.cluster.ClusterView;
import io.grove.core.cluster.ClusterSettings;
import io.grove.core.fairshare.IntegralState;
import io.grove.core.node.Node;
import io.grove.core.node.NodeCondition;
import io.grove.core.node.NodeDrain;
import io.grove.core.node.NodeTopology;
import io.grove.core.operation.Job;
import io.grove.core.operation.Operation;
import io.grove.core.operation.OperationSpec;
import io.grove.core.pool.PoolPause;
import io.grove.core.pool.PoolsConfig;
import io.grove.core.preempt.StarvationTracker;
import io.grove.core.resource.Resources;
import io.grove.core.schedule.GangReservation;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a forecast starts from, taken on the scheduler's thread in one pass of plain values: the
 * configuration, the nodes as they are, the unfinished operations in submission order with their
 * progress and running jobs, paused pools, what each tree remembers between updates, the durations
 * the finished jobs show, and the last hour's submissions. A forecast
 * then runs on a copy built from it, off the scheduler's thread.
 */
public record ForecastSnapshot(PoolsConfig config, ClusterSettings settings, Instant now, List<NodeState> nodes,
        List<OperationState> operations, List<PoolPause> pauses, Map<String, TreeMemory> trees, Durations durations,
        Arrivals arrivals, Cadence cadence) {

    /**
     * What a tree carries from one update to the next: its integral volumes, since when each
     * element has been below its fair share (a pool starving for a while is preempted for sooner
     * than one that just fell below), its gangs' reservations, and since when its gangs without
     * room have starved (they get a reservation after {@code gang_reservation_timeout}).
     */
    public record TreeMemory(Map<String, IntegralState> integral, Map<String, StarvationTracker.Below> belowFairShare,
            List<GangReservation> reservations, Map<String, Instant> gangsStarving) {
    }

    /** A node as it is, where it sits (a gang held to a rack is planned by it), and its drain ({@code null}: none). */
    public record NodeState(String id, Set<String> tags, Resources limits, NodeCondition condition, boolean online,
            NodeTopology topology, NodeDrain drain) {
    }

    /**
     * A running job.
     *
     * @param stopsBy when the grace of its graceful interruption runs out (a gang's restart, a time
     *     limit, a drained pool), or {@code null} while nothing stops it
     * @param gangWaitMs a gang's rank: how long its gang waited to start together (what taking it wastes beyond its work)
     */
    public record JobState(String jobId, String task, int index, int attempt, String nodeId, String tree, Instant started,
            Set<String> startedByPreempting, double preemptorFairShare, Instant stopsBy, long gangWaitMs) {
    }

    /** An unfinished operation. */
    public record OperationState(String id, OperationSpec spec, String user, String pool, Instant submitted, String key,
            Operation.Progress progress, List<JobState> running) {
    }

    /** Takes the snapshot of a cluster run at the daemon's default cadence; on the scheduler's thread. */
    public static ForecastSnapshot take(ClusterView cluster, Instant now) {
        return take(cluster, now, Cadence.DEFAULT);
    }

    /** Takes the snapshot of a cluster run at {@code cadence}; on the scheduler's thread. */
    public static ForecastSnapshot take(ClusterView cluster, Instant now, Cadence cadence) {
        List<NodeState> nodes = new ArrayList<>();
        for (Node node : cluster.nodes()) {
            nodes.add(new NodeState(node.id(), node.tags(), node.limits(), node.condition(),
                    node.state() == Node.State.ONLINE, node.topology(), node.drain()));
        }
        List<OperationState> operations = new ArrayList<>();
        for (Operation operation : cluster.registry().operations()) {
            if (operation.state().isFinished() || operation.held()) {
                continue;
            }
            List<JobState> running = new ArrayList<>();
            for (Job job : operation.runningJobs()) {
                running.add(new JobState(job.id(), job.task().name(), job.index(), job.attempt(), job.nodeId(), job.tree(),
                        job.startTime(), job.startedByPreempting(), job.preemptorFairShareAtStart(), job.stopsBy(),
                        job.gangWaitMs()));
            }
            operations.add(new OperationState(operation.id(), operation.spec(), operation.user(),
                    operation.poolByTree().values().stream().findFirst().orElse(""), operation.submitTime(),
                    operation.submissionKey(), operation.progress(), running));
        }
        List<PoolPause> pauses = new ArrayList<>();
        Map<String, TreeMemory> trees = new HashMap<>();
        for (String tree : cluster.treeNames()) {
            pauses.addAll(cluster.pauses(tree).values());
            trees.put(tree, new TreeMemory(Map.copyOf(cluster.integralState(tree)), cluster.belowFairShare(tree),
                    List.copyOf(cluster.reservations(tree)), cluster.gangsStarving(tree)));
        }
        return new ForecastSnapshot(cluster.config(), cluster.settings(), now, nodes, operations, pauses, Map.copyOf(trees),
                Durations.of(cluster.registry().operations(), cluster.config()), Arrivals.of(cluster.registry().operations(), now), cadence);
    }

    /** The snapshot's operation {@code id}, or {@code null}. */
    public OperationState operation(String id) {
        for (OperationState operation : operations) {
            if (operation.id().equals(id)) {
                return operation;
            }
        }
        return null;
    }

}
