package io.grove.server.http;

import io.grove.api.ApiJson;
import io.grove.api.StateEvent;
import io.grove.core.operation.Job;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One of the events the hub keeps for clients that reconnect, in a ring written over in place: ten
 * thousand are kept at a time, each outliving young collections, so keeping one must allocate
 * nothing (what it holds is the operation's and the job's own). Its frames (the time and the JSON
 * written out) are made when it is first sent. Read and written under the hub's lock only.
 */
final class KeptEvent {

    private long id;
    private String type;
    private String operationId;
    private Job job;
    private String state;
    private String user;
    private String pool;
    private String node;
    private String reason;
    private String message;
    private long atSecond;
    private int atNano;
    private Map<String, List<String>> placements;
    private String frame;
    private String withheld;

    /** Becomes event {@code number}, forgetting the one it was. */
    void set(long number, EventHub.Said said) {
        id = number;
        type = said.type();
        operationId = said.operationId();
        job = said.job();
        state = said.state();
        user = said.user();
        pool = said.pool();
        node = said.node();
        reason = said.reason();
        message = said.message();
        atSecond = said.at().getEpochSecond();
        atNano = said.at().getNano();
        placements = said.placements();
        frame = null;
        withheld = null;
    }

    String operationId() {
        return operationId;
    }

    /** Its pool's path in its operation's first tree (what a pool filter matches). */
    List<String> poolPath() {
        return placements.isEmpty() ? List.of() : placements.values().iterator().next();
    }

    /** The event as a stream sends it to {@code reader}: a job's output only where the reader may read it. */
    String frame(EventHub.Reader reader) {
        if (message == null || !message.contains(JobOutput.STDERR_MARK) || reader.user().equals(user)
                || reader.mayReadOutput(user, placements)) {
            if (frame == null) {
                frame = frame(event(message));
            }
            return frame;
        }
        if (withheld == null) {
            withheld = frame(event(JobOutput.forReader(message, false)));
        }
        return withheld;
    }

    /** The event as the API writes it, with {@code shownMessage} for its message. */
    StateEvent event(String shownMessage) {
        return new StateEvent(type, operationId, job == null ? null : job.id(), state, user, pool, node, reason,
                shownMessage, Instant.ofEpochSecond(atSecond, atNano).toString());
    }

    /** The event with its message as said (for tests and the document's examples). */
    StateEvent event() {
        return event(message);
    }

    private String frame(StateEvent event) {
        return "id: " + id + "\nevent: " + event.type() + "\ndata: " + ApiJson.writeCompact(event) + "\n\n";
    }
}
