package io.grove.server.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.grove.core.operation.JobEndReason;
import io.grove.core.operation.JobState;
import io.grove.core.operation.PreemptedFor;
import org.junit.jupiter.api.Test;

/** A job's end keeps what it was preempted for; ends written before that field read as they were. */
class JobEventCodecTest {

    static JournalEvent roundTrip(JournalEvent event) throws Exception {
        RecordBuffer out = new RecordBuffer();
        JobEventCodec.encode(event, out);
        byte[] bytes = out.toByteArray();
        return JobEventCodec.decode(bytes, 0, bytes.length);
    }

    @Test
    void aPreemptedJobsEndKeepsWhatItWasTakenFor() throws Exception {
        JournalEvent.JobEnded preempted = new JournalEvent.JobEnded("op-1-3", JobState.ABORTED, JobEndReason.PREEMPTED,
                "preempted for job op-2-1 of operation op-2 in pool urgent (...)", 1_000,
                new PreemptedFor("starvation", "op-2", "urgent"));
        assertEquals(preempted, roundTrip(preempted));
        JournalEvent.JobEnded drained = new JournalEvent.JobEnded("op-1-4", JobState.ABORTED, JobEndReason.ABORTED_BY_NODE,
                "stopped", 2_000, new PreemptedFor("pool_drained", null, null));
        assertEquals(drained, roundTrip(drained));
    }

    @Test
    void anEndWrittenWithoutItReadsAsNotPreempted() throws Exception {
        JournalEvent.JobEnded completed = new JournalEvent.JobEnded("op-1-1", JobState.COMPLETED, null, null, 3_000);
        JournalEvent.JobEnded read = (JournalEvent.JobEnded) roundTrip(completed);
        assertEquals(completed, read);
        assertNull(read.preemptedFor());
    }
}
