package io.grove.server.state;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.grove.core.operation.Job;
import io.grove.protocol.ProtocolJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.CRC32;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The journal's records: a 24-byte header (magic {@code GRJ2}, sequence number, body length, body
 * CRC-32, and a CRC-32 of those 20 bytes) then the body: JSON, or for job starts and ends a
 * compact binary form ({@link JobEventCodec}). Records are numbered from 1 in file
 * order, so each is self-delimiting and a damaged one can be told from a torn tail: a bad record
 * is a torn tail only when no valid record header follows it anywhere in the file (a crash in
 * mid-write, or the zeros a crash leaves after preallocation); otherwise the journal is corrupt
 * and opening it fails with the offset. Journals of the first format (length, CRC, body) are read
 * and rewritten in this one.
 */
final class JournalFormat {

    private static final Logger LOG = LoggerFactory.getLogger(JournalFormat.class);
    static final int MAGIC = 0x47524A32;
    static final int HEADER = 24;
    static final int MAX_RECORD = 64 * 1024 * 1024;
    private static final ObjectMapper JSON = ProtocolJson.mapper();

    private JournalFormat() {
    }

    /** What was read: the events, where the good part ends, and whether the file is of the first format. */
    record Contents(List<JournalEvent> events, long goodLength, boolean legacy) {
    }

    static byte[] encode(JournalEvent event, long sequence) {
        RecordBuffer out = new RecordBuffer();
        encode(event, sequence, out);
        return out.toByteArray();
    }

    /** Appends the record of {@code event} to {@code out}: the header, then the body. */
    static void encode(JournalEvent event, long sequence, RecordBuffer out) {
        int header = out.skip(HEADER);
        if (JobEventCodec.isJobEvent(event)) {
            JobEventCodec.encode(event, out);
        } else {
            try {
                out.write(JSON.writeValueAsBytes(event));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        finish(header, sequence, out);
    }

    /**
     * Appends the record of event {@code index} of {@code events}; a snapshot's running jobs
     * ({@link Revival.Captured#events}) are written straight from the jobs.
     */
    static void encode(List<JournalEvent> events, int index, long sequence, RecordBuffer out) {
        Job running = events instanceof Revival.RunningJobs snapshot ? snapshot.runningJob(index) : null;
        if (running == null) {
            encode(events.get(index), sequence, out);
            return;
        }
        int header = out.skip(HEADER);
        JobEventCodec.encodeStarted(running, out);
        finish(header, sequence, out);
    }

    /** Fills in the header of the record whose body was just written after it. */
    private static void finish(int header, long sequence, RecordBuffer out) {
        int length = out.size() - header - HEADER;
        byte[] bytes = out.array();
        out.putInt(header, MAGIC);
        out.putLong(header + 4, sequence);
        out.putInt(header + 12, length);
        out.putInt(header + 16, crc(bytes, header + HEADER, length));
        out.putInt(header + 20, crc(bytes, header, 20));
    }

    /**
     * Reads a whole journal.
     *
     * @throws IOException if a damaged record has valid records after it, or a record does not parse
     */
    static Contents read(byte[] data, Path file, List<JournalEvent> into) throws IOException {
        if (data.length >= 4 && ByteBuffer.wrap(data).getInt() != MAGIC && !allZero(data, 0)
                && nextValidHeader(data, 0) < 0) {
            return new Contents(into, readLegacy(data, file, into), true);
        }
        ByteBuffer buffer = ByteBuffer.wrap(data);
        int at = 0;
        long expected = 1;
        while (at < data.length) {
            String bad = null;
            int length = 0;
            if (!validHeader(data, at)) {
                bad = data.length - at < HEADER ? "a header cut short" : allZero(data, at) ? "zeros" : "a damaged header";
            } else {
                long sequence = buffer.getLong(at + 4);
                length = buffer.getInt(at + 12);
                if (sequence != expected) {
                    throw corrupt(file, at, "record number " + sequence + " where " + expected + " was due");
                }
                if ((long) at + HEADER + length > data.length) {
                    bad = "a record running past the end of the file";
                } else if (crc(data, at + HEADER, length) != buffer.getInt(at + 16)) {
                    bad = "a body checksum mismatch";
                }
            }
            if (bad != null) {
                int next = nextValidHeader(data, at + 1);
                if (next >= 0) {
                    throw corrupt(file, at, bad + ", with a valid record at offset " + next + " after it");
                }
                LOG.warn("journal {}: torn tail at offset {} ({}, {} bytes) cut off; {} records kept", file, at, bad,
                        data.length - at, into.size());
                return new Contents(into, at, false);
            }
            into.add(parse(data, at + HEADER, length, file, at));
            at += HEADER + length;
            expected++;
        }
        return new Contents(into, at, false);
    }

    private static boolean validHeader(byte[] data, int at) {
        if (data.length - at < HEADER) {
            return false;
        }
        ByteBuffer buffer = ByteBuffer.wrap(data);
        int length = buffer.getInt(at + 12);
        return buffer.getInt(at) == MAGIC && length >= 0 && length <= MAX_RECORD
                && crc(data, at, 20) == buffer.getInt(at + 20);
    }

    private static int nextValidHeader(byte[] data, int from) {
        for (int at = from; at + HEADER <= data.length; at++) {
            if (data[at] == 0x47 && validHeader(data, at)) {
                return at;
            }
        }
        return -1;
    }

    private static boolean allZero(byte[] data, int from) {
        for (int i = from; i < data.length; i++) {
            if (data[i] != 0) {
                return false;
            }
        }
        return true;
    }

    /** The first format: 4-byte length, 4-byte CRC, body; only a torn last record is forgiven. */
    private static long readLegacy(byte[] data, Path file, List<JournalEvent> into) throws IOException {
        ByteBuffer buffer = ByteBuffer.wrap(data);
        int at = 0;
        while (at < data.length) {
            if (data.length - at < 8) {
                return at;
            }
            int length = buffer.getInt(at);
            if (length < 0 || length > MAX_RECORD || (long) at + 8 + length > data.length) {
                return at;
            }
            if (crc(data, at + 8, length) != buffer.getInt(at + 4)) {
                if (at + 8 + length >= data.length) {
                    return at;
                }
                throw corrupt(file, at, "a body checksum mismatch");
            }
            into.add(parse(data, at + 8, length, file, at));
            at += 8 + length;
        }
        return at;
    }

    private static JournalEvent parse(byte[] data, int from, int length, Path file, int at) throws IOException {
        try {
            if (length > 0 && JobEventCodec.isBinary(data, from)) {
                return JobEventCodec.decode(data, from, length);
            }
            return JSON.readValue(data, from, length, JournalEvent.class);
        } catch (IOException e) {
            throw new IOException("journal " + file + ": record at offset " + at + " does not parse: " + e.getMessage(), e);
        }
    }

    private static IOException corrupt(Path file, long at, String why) {
        return new IOException("journal " + file + " is corrupt at offset " + at + " (" + why + "); nothing was "
                + "changed: move it aside to start empty, or restore a copy");
    }

    static int crc(byte[] bytes, int from, int length) {
        CRC32 crc = new CRC32();
        crc.update(bytes, from, length);
        return (int) crc.getValue();
    }
}
