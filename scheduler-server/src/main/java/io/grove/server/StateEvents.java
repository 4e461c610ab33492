package io.grove.server;

import io.grove.api.StateEvent;
import io.grove.core.cluster.Cluster;
import io.grove.core.operation.Job;
import io.grove.core.operation.Operation;
import io.grove.server.http.EventHub;
import java.util.Locale;
import java.util.Map;

/** Says what happened to operations and jobs to the event hub, on the scheduler's thread. */
final class StateEvents {

    private final Cluster cluster;
    private final EventHub hub;
    private final Clock clock;

    StateEvents(Cluster cluster, EventHub hub, Clock clock) {
        this.cluster = cluster;
        this.hub = hub;
        this.clock = clock;
    }

    void submitted(Operation operation) {
        say(operation, "operation", null, "pending", null, null, null);
    }

    void finished(Operation operation) {
        say(operation, "operation", null, lower(operation.state()), null, null, operation.finalMessage());
    }

    void jobStarted(Job job) {
        say(cluster.registry().operation(job.operationId()), "job", job, "running", job.nodeId(), null, null);
    }

    void jobEnded(Job job) {
        say(cluster.registry().operation(job.operationId()), "job", job, lower(job.state()), job.nodeId(),
                job.endReason() == null ? null : lower(job.endReason()), job.message());
    }

    private void say(Operation operation, String type, Job job, String state, String node, String reason,
            String message) {
        if (operation == null) {
            return;
        }
        Map.Entry<String, String> placed = operation.poolByTree().entrySet().stream().findFirst().orElse(null);
        hub.publish(new StateEvent(type, operation.id(), job == null ? null : job.id(), state, operation.user(),
                placed == null ? null : placed.getValue(), node, reason, message, clock.now().toString()),
                EventHub.placements(cluster, operation));
    }

    private static String lower(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }
}
