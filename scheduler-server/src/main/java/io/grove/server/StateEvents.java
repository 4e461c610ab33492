package io.grove.server;

import io.grove.core.cluster.ClusterView;
import io.grove.core.cluster.GangListener;
import io.grove.core.operation.Job;
import io.grove.core.operation.Operation;
import io.grove.core.operation.RegistryListener;
import io.grove.core.schedule.GangPlan;
import io.grove.core.schedule.GangReservation;
import io.grove.server.http.EventHub;
import java.util.List;
import java.util.Map;

/**
 * Says what happened to operations and jobs to the event hub, on the scheduler's thread: the
 * fields as they are (names and paths shared with the operation and the job), the time and the
 * JSON written only when a stream sends the event.
 */
final class StateEvents implements RegistryListener, GangListener {

    private final ClusterView cluster;
    private final EventHub hub;
    private final Clock clock;

    StateEvents(ClusterView cluster, EventHub hub, Clock clock) {
        this.cluster = cluster;
        this.hub = hub;
        this.clock = clock;
    }

    @Override
    public void operationSubmitted(Operation operation) {
        say(operation, "operation", null, "pending", null, null, null);
    }

    @Override
    public void operationFinished(Operation operation) {
        say(operation, "operation", null, operation.state().key(), null, null, operation.finalMessage());
    }

    @Override
    public void jobStarted(Job job) {
        say(cluster.registry().operation(job.operationId()), "job", job, "running", job.nodeId(), null, null);
    }

    @Override
    public void jobEnded(Job job) {
        say(cluster.registry().operation(job.operationId()), "job", job, job.state().key(), job.nodeId(),
                job.endReason() == null ? null : job.endReason().key(), job.message());
    }

    @Override
    public void planned(GangPlan plan) {
        say(cluster.registry().operation(plan.operationId()), "gang", null, "planned", plan.masterNode(), null,
                "planned: " + plan.describe() + "; MASTER_ADDR on " + plan.masterNode() + ", port " + plan.masterPort());
    }

    @Override
    public void started(GangPlan plan) {
        say(cluster.registry().operation(plan.operationId()), "gang", null, "started", plan.masterNode(), null,
                "every rank started: " + plan.describe());
    }

    @Override
    public void restarting(String operationId, String tree, String why) {
        say(cluster.registry().operation(operationId), "gang", null, "restarting", null, "gang_restart", why);
    }

    @Override
    public void reserved(GangReservation reservation) {
        say(cluster.registry().operation(reservation.operationId()), "gang", null, "reserved", null, null,
                "reserved: " + reservation.describe());
    }

    @Override
    public void unreserved(GangReservation reservation, String why) {
        say(cluster.registry().operation(reservation.operationId()), "gang", null, "unreserved", null, null,
                "its reservation (" + reservation.describe() + ") was dropped: " + why);
    }

    private void say(Operation operation, String type, Job job, String state, String node, String reason,
            String message) {
        if (operation == null) {
            return;
        }
        Map<String, List<String>> placements = cluster.registry().pathsToRoot(operation);
        String pool = placements.isEmpty() ? null : operation.poolByTree().get(placements.keySet().iterator().next());
        hub.publish(new EventHub.Said(type, operation.id(), job, state, operation.user(),
                pool, node, reason, message, clock.now(), placements));
    }
}
