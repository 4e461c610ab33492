package io.grove.agent;

import io.grove.protocol.FinishedJob;
import io.grove.protocol.RunningJob;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the node owes the scheduler until a reply acknowledges it: the results of jobs that ended,
 * and (with a version 2 scheduler) the jobs started since the last acknowledged heartbeat. A
 * heartbeat marks what it carries as reported; its reply acknowledges exactly that; a heartbeat
 * without a reply sends it all again, with the full running list.
 */
final class Reports {

    private final Map<String, FinishedJob> unacknowledged = new LinkedHashMap<>();
    private List<String> reportedFinished = List.of();
    /** Whether the scheduler speaks version 2: heartbeats then list only what started. */
    private boolean deltas;
    /** The next heartbeat carries the full running list (the scheduler asked, or one got no reply). */
    private boolean fullNext;
    /** Jobs accepted since the last acknowledged heartbeat, for a delta heartbeat. */
    private final List<RunningJob> startedSinceAck = new ArrayList<>();
    private int reportedStarted;

    /** A job ended: its result waits for an acknowledgement. */
    void finished(FinishedJob result) {
        unacknowledged.put(result.jobId(), result);
    }

    /** A job was accepted from a reply: the next delta names it. */
    void started(RunningJob job) {
        startedSinceAck.add(job);
    }

    boolean hasResult(String jobId) {
        return unacknowledged.containsKey(jobId);
    }

    int pendingResults() {
        return unacknowledged.size();
    }

    /** The results going out now (in a handshake or a heartbeat), marked as reported. */
    List<FinishedJob> reportResults() {
        reportedFinished = List.copyOf(unacknowledged.keySet());
        return List.copyOf(unacknowledged.values());
    }

    /**
     * The jobs started to name in the heartbeat going out, or {@code null} when it must carry the
     * full running list; either way they count as reported.
     */
    List<RunningJob> reportStarted() {
        reportedStarted = startedSinceAck.size();
        if (!deltas || fullNext) {
            fullNext = false;
            return null;
        }
        List<RunningJob> started = new ArrayList<>(startedSinceAck.size());
        for (RunningJob job : startedSinceAck) {
            if (!unacknowledged.containsKey(job.jobId())) {   // a job that already ended is reported so
                started.add(job);
            }
        }
        return started;
    }

    /**
     * A reply (or the welcome) acknowledged what was reported.
     *
     * @param resync the scheduler asks for the full running list next
     * @return the jobs whose results are acknowledged now
     */
    List<String> acknowledged(boolean resync) {
        List<String> done = new ArrayList<>();
        for (String jobId : reportedFinished) {
            if (unacknowledged.remove(jobId) != null) {
                done.add(jobId);
            }
        }
        reportedFinished = List.of();
        startedSinceAck.subList(0, Math.min(reportedStarted, startedSinceAck.size())).clear();
        reportedStarted = 0;
        fullNext |= resync;
        return done;
    }

    /** Welcomed speaking {@code version}: the handshake carried the full list; deltas from version 2 on. */
    void welcomed(int version) {
        deltas = version >= 2;
        fullNext = false;
        startedSinceAck.clear();
        reportedStarted = 0;
    }

    /** The heartbeat got no reply: everything goes again, with the full list. */
    void lost() {
        reportedFinished = List.of();
        reportedStarted = 0;
        fullNext = true;
    }
}
