package io.grove.server;

import io.grove.core.cluster.ClusterView;
import io.grove.core.operation.Job;
import io.grove.core.operation.Operation;
import io.grove.core.operation.RegistryListener;
import io.grove.server.http.EventHub;
import java.util.List;
import java.util.Map;

/**
 * Says what happened to operations and jobs to the event hub, on the scheduler's thread: the
 * fields as they are (names and paths shared with the operation and the job), the time and the
 * JSON written only when a stream sends the event.
 */
final class StateEvents implements RegistryListener {

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
