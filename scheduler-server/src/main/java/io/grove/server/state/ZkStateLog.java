package io.grove.server.state;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.grove.protocol.ProtocolJson;
import io.grove.server.coord.Coordination;
import io.grove.server.coord.CoordinationException;
import io.grove.server.coord.Epoch;
import io.grove.server.coord.Fencing;
import io.grove.server.coord.ZkLayout;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduler's state in ZooKeeper ({@link ZkLayout}), written by the leader of one epoch through
 * its {@link Coordination}. The writer thread takes every queued event, writes them as one log
 * record (a group commit; a batch above {@link #MAX_PART} goes in several parts), and completes
 * their futures once ZooKeeper has it. Every write carries the epoch ({@link Fencing}): once another
 * scheduler has claimed a newer epoch, this one's writes are refused ({@link Fenced}), it is told
 * through {@code onStopped}, and nothing more of it is written. A write whose outcome is unknown
 * (the connection was lost while it was out) stops the log the same way ({@link #uncertain}): what
 * the log holds is known again only to a leader that reads it, so this one steps down and nothing
 * more of it is written — a retry with the same {@code Idempotency-Key} then finds the operation
 * if it was written, instead of writing it twice. {@link #compact} writes a snapshot
 * in chunks, points to it and removes the records it covers.
 */
public final class ZkStateLog extends QueuedStateLog {

    private static final Logger LOG = LoggerFactory.getLogger(ZkStateLog.class);
    private static final ObjectMapper JSON = ProtocolJson.mapper();

    /** The most bytes of events in one znode, well within ZooKeeper's 1 MiB request limit. */
    static final int MAX_PART = 512 * 1024;

    /** Deletes per transaction when a compaction removes what its snapshot covers. */
    private static final int DELETES_PER_TRANSACTION = 200;

    /** A write refused because a newer leader claimed the epoch, or after such a refusal. */
    public static final class Fenced extends IllegalStateException {
        Fenced(String message) {
            super(message);
        }
    }

    private final Coordination zk;
    private final ZkLayout layout;
    private final Epoch epoch;
    private final Runnable onStopped;
    private final AtomicBoolean fenced = new AtomicBoolean();
    private final AtomicBoolean uncertain = new AtomicBoolean();
    private ZkLogReader.Pointer pointer;
    private long lastSequence;
    private long batchIds;

    private ZkStateLog(Coordination zk, ZkLayout layout, Epoch epoch, ZkLogReader reader, Runnable onStopped) {
        super("state log", reader.events());
        this.zk = zk;
        this.layout = layout;
        this.epoch = epoch;
        this.onStopped = onStopped;
        this.pointer = reader.pointer();
        this.lastSequence = reader.lastSequence();
        this.batchIds = Fencing.firstBatchId(epoch);
        startWriter("grove-zk-log");
    }

    /**
     * Opens the log for the leader of {@code epoch}: reads what {@code reader} has not read yet (after
     * the epoch's claim nobody else writes) and takes its events as {@link #recovered()};
     * {@code onStopped} is told once when the log stops writing ({@link #uncertain}, or fenced).
     */
    public static ZkStateLog open(Coordination zk, ZkLayout layout, Epoch epoch, ZkLogReader reader,
            Runnable onStopped) throws Exception {
        zk.ensurePath(layout.log());
        reader.catchUp();
        return new ZkStateLog(zk, layout, epoch, reader, onStopped);
    }

    /** Whether the log stopped because a write's outcome is unknown (rather than being fenced). */
    public boolean uncertain() {
        return uncertain.get() && !fenced.get();
    }

    public Epoch epoch() {
        return epoch;
    }

    @Override
    RuntimeException refusal() {
        if (fenced.get()) {
            return fencedError();
        }
        return uncertain.get() ? uncertainError() : super.refusal();
    }

    /** One group commit: every queued event in one record (or several parts), then their futures. */
    @Override
    void writeGroup(List<Append> batch) {
        RuntimeException refused = refusal();
        if (refused != null) {
            failed(batch, refused);
            return;
        }
        RecordBuffer bytes = new RecordBuffer();
        long sequence = 1;
        for (Append append : batch) {
            JournalFormat.encode(append.event(), sequence++, bytes);
        }
        try {
            lastSequence = writeBatch(zk, layout, epoch, bytes.toByteArray(), ++batchIds);
            stored(batch.size());
            completed(batch);
        } catch (CoordinationException e) {
            failed(batch, failure(e, "write " + batch.size() + " event(s)"));
        }
    }

    /**
     * Writes {@code events} as one batch with id {@code batch}, fenced by {@code epoch}, as the
     * writer thread does (a simulation of the group writes through this); returns the sequence
     * number of the last record.
     */
    public static long writeEvents(Coordination zk, ZkLayout layout, Epoch epoch, List<JournalEvent> events, long batch)
            throws CoordinationException {
        RecordBuffer bytes = new RecordBuffer();
        long sequence = 1;
        for (JournalEvent event : events) {
            JournalFormat.encode(event, sequence++, bytes);
        }
        return writeBatch(zk, layout, epoch, bytes.toByteArray(), batch);
    }

    /**
     * Writes one batch of encoded events as log records of at most {@link #MAX_PART} bytes each,
     * every one fenced by {@code epoch}; returns the sequence number of the last record.
     */
    private static long writeBatch(Coordination zk, ZkLayout layout, Epoch epoch, byte[] data, long batch)
            throws CoordinationException {
        for (int from = 0; ; from += MAX_PART) {
            int length = Math.min(MAX_PART, data.length - from);
            boolean last = from + length >= data.length;
            ByteBuffer part = ByteBuffer.allocate(9 + length).put((byte) (last ? 0 : 1)).putLong(batch);
            part.put(data, from, length);
            String created = zk.write(epoch, List.of(new Coordination.Create(layout.logRecord(), part.array(), true,
                    false))).get(0);
            if (last) {
                return ZkLayout.sequenceOf(created);
            }
        }
    }

    @Override
    void compactTo(List<JournalEvent> events) throws Exception {
        RuntimeException refused = refusal();
        if (refused != null) {
            throw refused;
        }
        RecordBuffer bytes = new RecordBuffer();
        long sequence = 1;
        for (int i = 0; i < events.size(); i++) {
            JournalFormat.encode(events, i, sequence++, bytes);
        }
        byte[] data = bytes.toByteArray();
        long id = Fencing.nextSnapshotId(pointer.id(), epoch);
        String dir = snapshotPath(layout, id);
        int chunks = Math.max(1, (data.length + MAX_PART - 1) / MAX_PART);
        try {
            zk.ensurePath(layout.snapshots());
            // the snapshot's directory and every chunk are written fenced, as every write of the leader
            zk.write(epoch, List.of(Coordination.Create.persistent(dir, new byte[0])));
            for (int chunk = 0; chunk < chunks; chunk++) {
                int from = chunk * MAX_PART;
                byte[] part = Arrays.copyOfRange(data, from, Math.min(data.length, from + MAX_PART));
                zk.write(epoch, List.of(Coordination.Create.persistent(chunkPath(dir, chunk), part)));
            }
            ZkLogReader.Pointer next = new ZkLogReader.Pointer(id, chunks, lastSequence);
            byte[] written = JSON.writeValueAsBytes(next);
            zk.write(epoch, List.of(zk.read(layout.snapshot()) == null
                    ? Coordination.Create.persistent(layout.snapshot(), written)
                    : new Coordination.Put(layout.snapshot(), written)));
            pointer = next;
            restarted(events.size());
            removeCovered(next);
        } catch (CoordinationException e) {
            throw failure(e, "compact");
        }
    }

    @Override
    Throwable compactionFailed(Exception e) {
        return e instanceof RuntimeException runtime ? runtime : new IllegalStateException(e.getMessage(), e);
    }

    /** Removes the log records and the older snapshots the new snapshot covers, fenced like every write. */
    private void removeCovered(ZkLogReader.Pointer current) throws CoordinationException {
        List<String> paths = new ArrayList<>();
        for (String child : zk.children(layout.log())) {
            if (ZkLayout.sequenceOf(child) <= current.through()) {
                paths.add(layout.log() + "/" + child);
            }
        }
        String keep = snapshotPath(layout, current.id());
        for (String snapshot : zk.children(layout.snapshots())) {
            String dir = layout.snapshots() + "/" + snapshot;
            if (!dir.equals(keep)) {
                for (String chunk : zk.children(dir)) {
                    paths.add(dir + "/" + chunk);
                }
                paths.add(dir);
            }
        }
        for (int from = 0; from < paths.size(); from += DELETES_PER_TRANSACTION) {
            List<Coordination.Write> deletes = new ArrayList<>();
            for (String path : paths.subList(from, Math.min(paths.size(), from + DELETES_PER_TRANSACTION))) {
                deletes.add(new Coordination.Delete(path));
            }
            zk.write(epoch, deletes);
        }
    }

    /** Why a write failed; a refused epoch check fences this log for good and tells the daemon once. */
    private RuntimeException failure(CoordinationException e, String what) {
        switch (e.kind()) {
            case FENCED -> {
                if (fenced.compareAndSet(false, true)) {
                    LOG.error("ZooKeeper refused to {}: a newer leader claimed epoch {} or later; this scheduler stops "
                            + "writing", what, epoch.number() + 1);
                    if (!uncertain.get()) {
                        onStopped.run();
                    }
                }
                return fencedError();
            }
            case OUTCOME_UNKNOWN -> {
                LOG.error("ZooKeeper: cannot {}: {}; this scheduler stops writing until a leader reads the log again",
                        what, e.getMessage());
                if (uncertain.compareAndSet(false, true) && !fenced.get()) {
                    onStopped.run();
                }
                return new WriteAhead.OutcomeUnknown(e.getMessage(), e);
            }
            default -> {
                LOG.error("ZooKeeper: cannot {}: {}", what, e.getMessage());
                return new IllegalStateException(e.getMessage(), e);
            }
        }
    }

    private IllegalStateException uncertainError() {
        return new IllegalStateException("a write of this scheduler (epoch " + epoch.number() + ") has an unknown "
                + "outcome: it writes nothing more until a leader has read the log again");
    }

    private Fenced fencedError() {
        return new Fenced("this scheduler (epoch " + epoch.number() + ") is no longer the leader: its writes are refused");
    }

    static String snapshotPath(ZkLayout layout, long id) {
        return layout.snapshots() + "/s-" + String.format("%019d", id);
    }

    static String chunkPath(String snapshotDir, int chunk) {
        return snapshotDir + "/c-" + String.format("%05d", chunk);
    }
}
