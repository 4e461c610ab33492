package io.grove.core.cluster;

import io.grove.core.fairshare.IntegralState;
import io.grove.core.node.Node;
import io.grove.core.operation.Job;
import io.grove.core.operation.JobEndReason;
import io.grove.core.operation.JobState;
import io.grove.core.operation.Operation;
import io.grove.core.preempt.StarvationTracker;
import io.grove.core.resource.Resources;
import io.grove.core.schedule.GangReservation;
import java.time.Instant;
import java.util.Map;
import java.util.Set;

/**
 * Puts back into a {@link Cluster} what was true before a restart, or in a forecast's copy: running
 * jobs and their nodes, ends replayed from the journal, integral volumes and starvation clocks.
 * Nothing here is journaled again or heard by the registry's listener. Reached by
 * {@link Cluster#revival()}; it changes the cluster it belongs to and nothing else.
 */
public final class ClusterRevival {

    private final Cluster cluster;

    ClusterRevival(Cluster cluster) {
        this.cluster = cluster;
    }

    /**
     * Re-creates a running job from the journal after a restart. Its node is known as offline
     * until it reconnects and reports the job (then it is kept) or not (then it is aborted); a node
     * that never comes back loses its jobs after {@code node_registration_timeout} from now.
     */
    public Job restoreRunningJob(String operationId, String jobId, String task, int index, int attempt, String nodeId,
            String tree, Instant started, Set<String> preempting, double preemptorFairShare, Instant now) {
        Job job = cluster.registry().restoreJob(operationId, jobId, task, index, attempt, nodeId, tree, started,
                preempting, preemptorFairShare);
        Node node = cluster.nodeMap().computeIfAbsent(nodeId, id -> {
            Node placeholder = new Node(id, Set.of(), Resources.ZERO, now);
            placeholder.assignTree(tree, "node " + id + " has not reconnected since the scheduler restarted", false);
            placeholder.markOffline();
            cluster.drains().known(placeholder);
            return placeholder;
        });
        node.addJob(job);
        cluster.counted(node);
        Operation operation = cluster.registry().operation(operationId);
        if (operation.hasTimeLimits()) {
            cluster.timeLimits().started(job, operation.timeLimit(tree, operation.position(job.task())));
        }
        TreeState state = cluster.treeState(job.tree());
        if (state != null && state.index != null) {
            state.index.jobStarted(job);
        }
        return job;
    }

    /**
     * Replays a job's end from the journal; a job that is not running (it ended with its operation
     * already, say) is skipped.
     *
     * @return whether the job was running
     */
    public boolean replayJobEnd(String jobId, JobState state, Instant at, JobEndReason reason, String message) {
        Job job = cluster.registry().runningJob(jobId);
        if (job == null) {
            return false;
        }
        cluster.endJob(job, state, at, reason, message);
        return true;
    }

    /** Restores a tree's integral volumes (from the journal); ignored for an unknown tree. */
    public void restoreIntegralState(String tree, Map<String, IntegralState> state) {
        TreeState known = cluster.treeState(tree);
        if (known != null) {
            known.integralState = Map.copyOf(state);
        }
    }

    /** Starts a tree's starvation clocks from {@code below} (a forecast's copy); ignored for an unknown tree. */
    public void restoreBelowFairShare(String tree, Map<String, StarvationTracker.Below> below) {
        TreeState known = cluster.treeState(tree);
        if (known != null) {
            known.starvation.restore(below);
        }
    }

    /**
     * Puts back a gang's reservation from the journal; the next check of the nodes predicts its start
     * again, or drops it if its gang no longer starves for room. A tree that is gone keeps none.
     */
    public void restoreReservation(GangReservation reservation) {
        TreeState state = cluster.treeState(reservation.tree());
        if (state != null) {
            state.reservations.put(reservation);
        }
    }

    /** Puts back since when a tree's gangs have starved without fitting (a forecast's copy). */
    public void restoreGangsStarving(String tree, Map<String, Instant> since) {
        TreeState state = cluster.treeState(tree);
        if (state != null) {
            state.reservations.restoreStarving(since);
        }
    }

    /** Drops a gang's reservation as the journal says it was dropped. */
    public void restoreUnreserved(String tree, String operationId) {
        TreeState state = cluster.treeState(tree);
        if (state != null) {
            state.reservations.remove(operationId);
        }
    }
}
