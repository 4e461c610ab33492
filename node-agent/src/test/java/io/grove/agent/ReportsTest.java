package io.grove.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.grove.protocol.FinishedJob;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Results are reported until acknowledged, and those acknowledged lately go again in the next
 * handshake: a scheduler killed before an acknowledged end was durable comes back with the job
 * running, and would otherwise take it as lost and run it again.
 */
class ReportsTest {

    static FinishedJob completed(String jobId) {
        return new FinishedJob(jobId, FinishedJob.Outcome.COMPLETED, 0, null, 0, 0);
    }

    static List<String> ids(List<FinishedJob> results) {
        return results.stream().map(FinishedJob::jobId).toList();
    }

    @Test
    void aResultIsSentUntilAcknowledgedInHeartbeatsAndLatelyAcknowledgedOnesGoAgainInTheNextHandshake() {
        Reports reports = new Reports();
        reports.finished(completed("op-1-1"));
        assertEquals(List.of("op-1-1"), ids(reports.reportResults()));
        reports.lost();
        assertEquals(List.of("op-1-1"), ids(reports.reportResults()), "no reply: sent again");
        assertEquals(List.of("op-1-1"), reports.acknowledged(false, 1_000));
        reports.finished(completed("op-1-2"));
        assertEquals(List.of("op-1-2"), ids(reports.reportResults()), "heartbeats carry only what is not acknowledged");

        // the connection drops; the handshake to the scheduler (maybe restarted) carries both
        reports.lost();
        assertEquals(List.of("op-1-2", "op-1-1"), ids(reports.reportHandshakeResults(2_000)));
        assertEquals(List.of("op-1-2"), reports.acknowledged(false, 2_000), "the welcome acknowledges the new one");
        assertEquals(List.of("op-1-1", "op-1-2"), ids(reports.reportHandshakeResults(2_000 + 20_000)),
                "each is sent again for a while after its acknowledgement");
        assertEquals(List.of("op-1-2"), ids(reports.reportHandshakeResults(1_000 + Reports.RESEND_ACKNOWLEDGED_MS + 1)),
                "then no more");
        assertEquals(List.of(), ids(reports.reportHandshakeResults(2_000 + Reports.RESEND_ACKNOWLEDGED_MS + 1)));
    }
}
