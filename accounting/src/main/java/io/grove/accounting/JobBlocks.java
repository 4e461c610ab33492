package io.grove.accounting;

import io.grove.core.accounting.JobRecord;
import io.grove.core.operation.JobId;
import io.grove.core.resource.Resources;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * How a block of the ledger holds its job records: the records of one operation in one pool (its
 * user, tree, pool and pool path are the block's columns, said once), each record's own fields one
 * after another in a byte string. A transaction writes one row per block instead of one per record,
 * so a record costs its bytes rather than a row and five index entries.
 *
 * <p>Format 1: a version byte, the record count, then per record a flags byte (which of the
 * nullable fields follow; whether its id is the usual {@code <operation>-<sequence>}, kept as the
 * number), its id, task, index, attempt, node, the five resources, start and end (epoch ms), state,
 * exit code, reason, message, CPU seconds, GPU seconds and lost work seconds.
 */
final class JobBlocks {

    /** The most records a block holds: a read decodes a block whole. */
    static final int MAX_RECORDS = 1_000;

    static final byte FORMAT = 1;

    private static final int USUAL_ID = 1;
    private static final int NODE = 1 << 1;
    private static final int EXIT = 1 << 2;
    private static final int REASON = 1 << 3;
    private static final int MESSAGE = 1 << 4;
    private static final int CPU = 1 << 5;
    private static final int LOST = 1 << 6;

    private JobBlocks() {
    }

    /** What records of one block share: their block's columns. */
    record Key(String operationId, String user, String tree, String pool, String poolPath) {
        Key {
            Objects.requireNonNull(operationId, "operationId");
        }

        static Key of(JobRecord record) {
            return new Key(record.operationId(), record.user(), record.tree(), record.pool(), record.poolPath());
        }
    }

    /** The columns {@link Stored#of} reads, in its order. */
    static final String COLUMNS = "block_id, operation_id, user_name, tree, pool, pool_path, data";

    /** A block as the database holds it. */
    record Stored(long id, Key key, byte[] data) {
        /** The block of a row that selected {@link #COLUMNS} first. */
        static Stored of(ResultSet row) throws SQLException {
            return new Stored(row.getLong(1), new Key(row.getString(2), row.getString(3), row.getString(4),
                    row.getString(5), row.getString(6)), row.getBytes(7));
        }

        List<JobRecord> records() {
            return decode(key, data, id);
        }
    }

    /** The bytes of {@code records}, all of {@code key}. */
    static byte[] encode(Key key, List<JobRecord> records) {
        Out out = new Out(64 + 128 * records.size());
        out.put(FORMAT);
        out.putInt(records.size());
        for (JobRecord r : records) {
            long sequence = JobId.sequenceOf(r.jobId(), key.operationId());
            int flags = (sequence >= 0 ? USUAL_ID : 0) | (r.node() != null ? NODE : 0) | (r.exitCode() != null ? EXIT : 0)
                    | (r.reason() != null ? REASON : 0) | (r.message() != null ? MESSAGE : 0)
                    | (r.cpuSeconds() != null ? CPU : 0) | (r.lostWorkSeconds() != null ? LOST : 0);
            out.put((byte) flags);
            if (sequence >= 0) {
                out.putLong(sequence);
            } else {
                out.text(r.jobId());
            }
            out.text(r.task());
            out.putInt(r.index());
            out.putInt(r.attempt());
            if (r.node() != null) {
                out.text(r.node());
            }
            Resources resources = r.resources();   // in the order of toArray() and of the constructor
            out.putDouble(resources.userSlots());
            out.putDouble(resources.cpu());
            out.putDouble(resources.gpu());
            out.putDouble(resources.memory());
            out.putDouble(resources.network());
            out.putLong(r.startMs());
            out.putLong(r.endMs());
            out.text(r.state());
            if (r.exitCode() != null) {
                out.putInt(r.exitCode());
            }
            if (r.reason() != null) {
                out.text(r.reason());
            }
            if (r.message() != null) {
                out.text(r.message());
            }
            if (r.cpuSeconds() != null) {
                out.putDouble(r.cpuSeconds());
            }
            out.putDouble(r.gpuSeconds());
            if (r.lostWorkSeconds() != null) {
                out.putDouble(r.lostWorkSeconds());
            }
        }
        return out.bytes();
    }

    /** A byte string written big-endian, growing as it is written: what {@link #decode} reads. */
    private static final class Out {
        private ByteBuffer buffer;

        Out(int capacity) {
            buffer = ByteBuffer.allocate(capacity);
        }

        private ByteBuffer room(int bytes) {
            if (buffer.remaining() < bytes) {
                ByteBuffer larger = ByteBuffer.allocate(Math.max(buffer.capacity() * 2, buffer.position() + bytes));
                buffer.flip();
                larger.put(buffer);
                buffer = larger;
            }
            return buffer;
        }

        void put(byte value) {
            room(1).put(value);
        }

        void putInt(int value) {
            room(4).putInt(value);
        }

        void putLong(long value) {
            room(8).putLong(value);
        }

        void putDouble(double value) {
            room(8).putDouble(value);
        }

        /** Its length in UTF-8 bytes, then the bytes; ASCII (ids, tasks, states, nodes) copied without a new array. */
        void text(String value) {
            int length = value.length();
            ByteBuffer at = room(4 + length);
            int start = at.position();
            at.putInt(length);
            for (int i = 0; i < length; i++) {
                char c = value.charAt(i);
                if (c >= 0x80) {
                    at.position(start);
                    byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
                    room(4 + utf8.length).putInt(utf8.length).put(utf8);
                    return;
                }
                at.put((byte) c);
            }
        }

        byte[] bytes() {
            return Arrays.copyOf(buffer.array(), buffer.position());
        }
    }

    /**
     * The records of a block. A block that cannot be read (not this format, cut short) is an
     * error that names it: the database holds something this version did not write.
     */
    static List<JobRecord> decode(Key key, byte[] data, long blockId) {
        try {
            ByteBuffer in = ByteBuffer.wrap(data);
            byte format = in.get();
            if (format != FORMAT) {
                throw new IllegalStateException("job block " + blockId + " has format " + format + ", not " + FORMAT);
            }
            int count = in.getInt();
            if (count < 0 || count > data.length) {
                throw new IllegalStateException("job block " + blockId + " says it holds " + count + " records");
            }
            List<JobRecord> records = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                int flags = in.get();
                String id = (flags & USUAL_ID) != 0 ? key.operationId() + "-" + in.getLong() : text(in);
                String task = text(in);
                int index = in.getInt();
                int attempt = in.getInt();
                String node = (flags & NODE) != 0 ? text(in) : null;
                Resources resources = new Resources(in.getDouble(), in.getDouble(), in.getDouble(), in.getDouble(),
                        in.getDouble());
                long start = in.getLong();
                long end = in.getLong();
                String state = text(in);
                Integer exit = (flags & EXIT) != 0 ? in.getInt() : null;
                String reason = (flags & REASON) != 0 ? text(in) : null;
                String message = (flags & MESSAGE) != 0 ? text(in) : null;
                Double cpu = (flags & CPU) != 0 ? in.getDouble() : null;
                double gpu = in.getDouble();
                Double lost = (flags & LOST) != 0 ? in.getDouble() : null;
                records.add(new JobRecord(id, key.operationId(), task, index, attempt, key.user(), key.tree(), key.pool(),
                        key.poolPath(), node, resources, start, end, state, exit, reason, message, cpu, gpu, lost));
            }
            return records;
        } catch (BufferUnderflowException | IllegalArgumentException e) {
            throw new IllegalStateException("job block " + blockId + " is cut short or damaged", e);
        }
    }

    private static String text(ByteBuffer in) {
        int length = in.getInt();
        if (length < 0 || length > in.remaining()) {
            throw new IllegalArgumentException("a text of " + length + " bytes with " + in.remaining() + " left");
        }
        String value = new String(in.array(), in.arrayOffset() + in.position(), length, StandardCharsets.UTF_8);
        in.position(in.position() + length);
        return value;
    }
}
