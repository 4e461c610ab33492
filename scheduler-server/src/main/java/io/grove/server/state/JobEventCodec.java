package io.grove.server.state;

import io.grove.core.operation.Job;
import io.grove.core.operation.JobEndReason;
import io.grove.core.operation.JobState;
import io.grove.core.operation.PreemptedFor;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The two records a busy scheduler writes most — a job started, a job ended — in a compact binary
 * body instead of JSON (about a third of the bytes, and no reflection). A binary body starts with
 * its kind ({@value #STARTED} or {@value #ENDED}); a JSON body starts with {@code '{'}, so the two
 * kinds of body mix in one journal and journals written before read as they are. Enums are written
 * by name, so reordering them never changes what a journal means.
 */
final class JobEventCodec {

    static final byte STARTED = 1;
    static final byte ENDED = 2;

    private JobEventCodec() {
    }

    /** Whether a body (at {@code from}) is binary. */
    static boolean isBinary(byte[] data, int from) {
        return data[from] == STARTED || data[from] == ENDED;
    }

    /** Whether {@code event} has a binary body. */
    static boolean isJobEvent(JournalEvent event) {
        return event instanceof JournalEvent.JobStarted || event instanceof JournalEvent.JobEnded;
    }

    /** Appends the binary body of a job event ({@link #isJobEvent}) to {@code out}. */
    static void encode(JournalEvent event, RecordBuffer out) {
        if (event instanceof JournalEvent.JobStarted started) {
            out.writeByte(STARTED);
            out.writeText(started.jobId());
            writeStarted(out, started.operationId(), started.task(), started.index(), started.attempt(),
                    started.nodeId(), started.tree(), started.at(), started.startedByPreempting(),
                    started.preemptorFairShare());
        } else {
            JournalEvent.JobEnded ended = (JournalEvent.JobEnded) event;
            out.writeByte(ENDED);
            out.writeText(ended.jobId());
            out.writeText(ended.state() == null ? null : ended.state().name());
            out.writeText(ended.reason() == null ? null : ended.reason().name());
            out.writeText(ended.message());
            out.writeLong(ended.at());
            if (ended.preemptedFor() != null) {
                // written after what older journals hold: they end here, and read as not preempted
                out.writeText(ended.preemptedFor().reason());
                out.writeText(ended.preemptedFor().operationId());
                out.writeText(ended.preemptedFor().pool());
            }
        }
    }

    /**
     * The body of {@code Revival.started(job)}, the same bytes, written from the job itself: a
     * compaction writes hundreds of thousands of these, and neither the event nor the job's id
     * string need exist for it.
     */
    static void encodeStarted(Job job, RecordBuffer out) {
        out.writeByte(STARTED);
        long sequence = job.idSequence();
        if (sequence >= 0) {
            out.writeJobId(job.operationId(), sequence);
        } else {
            out.writeText(job.id());
        }
        writeStarted(out, job.operationId(), job.task().name(), job.index(), job.attempt(), job.nodeId(), job.tree(),
                job.startTime().toEpochMilli(), job.startedByPreempting(), job.preemptorFairShareAtStart());
    }

    /** A job_started body after its id. */
    private static void writeStarted(RecordBuffer out, String operationId, String task, int index, int attempt,
            String nodeId, String tree, long at, Set<String> preempting, double preemptorFairShare) {
        out.writeText(operationId);
        out.writeText(task);
        out.writeInt(index);
        out.writeInt(attempt);
        out.writeText(nodeId);
        out.writeText(tree);
        out.writeLong(at);
        out.writeInt(preempting.size());
        for (String operation : preempting) {
            out.writeText(operation);
        }
        out.writeDouble(preemptorFairShare);
    }

    static JournalEvent decode(byte[] data, int from, int length) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(data, from, length));
        byte kind = in.readByte();
        if (kind == STARTED) {
            String jobId = text(in);
            String operationId = text(in);
            String task = text(in);
            int index = in.readInt();
            int attempt = in.readInt();
            String nodeId = text(in);
            String tree = text(in);
            long at = in.readLong();
            int count = in.readInt();
            if (count < 0 || count > length) {
                throw new IOException("a job_started record names " + count + " preempting operations");
            }
            Set<String> preempting = new LinkedHashSet<>();
            for (int i = 0; i < count; i++) {
                preempting.add(text(in));
            }
            return new JournalEvent.JobStarted(jobId, operationId, task, index, attempt, nodeId, tree, at, preempting,
                    in.readDouble());
        }
        String jobId = text(in);
        String state = text(in);
        String reason = text(in);
        String message = text(in);
        long at = in.readLong();
        PreemptedFor preemptedFor = in.available() > 0
                ? new PreemptedFor(text(in), text(in), text(in)) : null;
        try {
            return new JournalEvent.JobEnded(jobId, state == null ? null : JobState.valueOf(state),
                    reason == null ? null : JobEndReason.valueOf(reason), message, at, preemptedFor);
        } catch (IllegalArgumentException e) {
            throw new IOException("a job_ended record with an unknown state or reason: " + e.getMessage());
        }
    }

    private static String text(DataInputStream in) throws IOException {
        int length = in.readInt();
        if (length < 0) {
            return null;
        }
        if (length > in.available()) {
            throw new IOException("a string of " + length + " bytes runs past its record");
        }
        byte[] bytes = in.readNBytes(length);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
