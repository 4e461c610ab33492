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
 *
 * <p>A scheduler answers before a job's end is durable in its journal (docs/api.md#durability):
 * killed right after, it comes back (or a new leader takes over) with the job running. So results
 * acknowledged in the last {@value #RESEND_ACKNOWLEDGED_MS} ms go again in the next handshake; a
 * scheduler that has the job ended already ignores them, one that revived it running ends it as it
 * ended instead of taking it as lost and running it again.
 */
final class Reports {

    /** How long an acknowledged result is sent again in handshakes. */
    static final long RESEND_ACKNOWLEDGED_MS = 30_000;

    private record Acknowledged(FinishedJob result, long atMs) {
    }

    private final Map<String, FinishedJob> unacknowledged = new LinkedHashMap<>();
    /** Results acknowledged lately, oldest first, for the next handshake. */
    private final Map<String, Acknowledged> acknowledgedLately = new LinkedHashMap<>();
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

    /** The results going out now in a heartbeat, marked as reported. */
    List<FinishedJob> reportResults() {
        reportedFinished = List.copyOf(unacknowledged.keySet());
        return List.copyOf(unacknowledged.values());
    }

    /**
     * The results going out now in a handshake: those not acknowledged (marked as reported), and
     * again those acknowledged in the last {@value #RESEND_ACKNOWLEDGED_MS} ms.
     */
    List<FinishedJob> reportHandshakeResults(long nowMs) {
        forgetOlderThan(nowMs - RESEND_ACKNOWLEDGED_MS);
        List<FinishedJob> results = new ArrayList<>(reportResults());
        for (Acknowledged lately : acknowledgedLately.values()) {
            if (!unacknowledged.containsKey(lately.result().jobId())) {
                results.add(lately.result());
            }
        }
        return results;
    }

    private void forgetOlderThan(long cutMs) {
        acknowledgedLately.values().removeIf(lately -> lately.atMs() < cutMs);
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
    List<String> acknowledged(boolean resync, long nowMs) {
        List<String> done = new ArrayList<>();
        for (String jobId : reportedFinished) {
            FinishedJob result = unacknowledged.remove(jobId);
            if (result != null) {
                done.add(jobId);
                acknowledgedLately.put(jobId, new Acknowledged(result, nowMs));
            }
        }
        forgetOlderThan(nowMs - RESEND_ACKNOWLEDGED_MS);
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
