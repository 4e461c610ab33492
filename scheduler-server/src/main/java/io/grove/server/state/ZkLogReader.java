package io.grove.server.state;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.grove.protocol.ProtocolJson;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import io.grove.server.coord.Coordination;
import io.grove.server.coord.CoordinationException;
import io.grove.server.coord.ZkLayout;

/**
 * Reads the state in ZooKeeper (or the tests' in-memory twin of it): the current snapshot and the log records after it, and then, call
 * after call, only what was added since — a standby follows the leader this way, so that taking
 * over needs no long read. A record's data is a flag byte (0: the last part of its batch, 1: more
 * parts follow), the batch's id (8 bytes), then the batch's events as journal records; the parts
 * of a batch that was cut short (its leader died between parts) are skipped.
 */
public final class ZkLogReader {

    private static final ObjectMapper JSON = ProtocolJson.mapper();

    /** What the snapshot pointer says: which snapshot, how many chunks, the last log record it covers. */
    record Pointer(long id, int chunks, long through) {
    }

    private final Coordination zk;
    private final ZkLayout layout;
    private final List<JournalEvent> events = new ArrayList<>();
    /** No snapshot yet: ZooKeeper numbers sequential children from 0. */
    static final Pointer NONE = new Pointer(0, 0, -1);

    private Pointer pointer = NONE;
    private long lastSequence = -1;
    private long pendingBatch = -1;
    private final ByteArrayOutputStream pending = new ByteArrayOutputStream();

    public ZkLogReader(Coordination zk, ZkLayout layout) {
        this.zk = zk;
        this.layout = layout;
    }

    /** Reads what is new since the last call (everything from the snapshot when the snapshot changed). */
    public synchronized void catchUp() throws CoordinationException, IOException {
        Pointer current = readPointer();
        if (current.id() != pointer.id()) {
            events.clear();
            pending.reset();
            pendingBatch = -1;
            lastSequence = current.through();
            pointer = current;
            if (current.id() > 0) {
                readSnapshot(current);
            }
        }
        List<String> children = new ArrayList<>(zk.children(layout.log()));
        children.sort(Comparator.comparingLong(ZkLayout::sequenceOf));
        for (String child : children) {
            long sequence = ZkLayout.sequenceOf(child);
            if (sequence <= lastSequence) {
                continue;
            }
            byte[] data = zk.read(layout.log() + "/" + child);
            if (data == null) {
                // compacted away meanwhile: the next call reads the new snapshot
                return;
            }
            accept(data, child);
            lastSequence = sequence;
        }
    }

    private void accept(byte[] data, String child) throws IOException {
        ByteBuffer header = ByteBuffer.wrap(data);
        byte flag = header.get();
        long batch = header.getLong();
        if (batch != pendingBatch) {
            pending.reset();
            pendingBatch = batch;
        }
        pending.write(data, 9, data.length - 9);
        if (flag == 0) {
            JournalFormat.read(pending.toByteArray(), Path.of("zookeeper:" + layout.log() + "/" + child), events);
            pending.reset();
            pendingBatch = -1;
        }
    }

    private Pointer readPointer() throws CoordinationException, IOException {
        byte[] data = zk.read(layout.snapshot());
        return data == null ? NONE : JSON.readValue(data, Pointer.class);
    }

    private void readSnapshot(Pointer current) throws CoordinationException, IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        String dir = ZkStateLog.snapshotPath(layout, current.id());
        for (int chunk = 0; chunk < current.chunks(); chunk++) {
            byte[] data = zk.read(ZkStateLog.chunkPath(dir, chunk));
            if (data == null) {
                throw new IOException("zookeeper:" + dir + ": chunk " + chunk + " of " + current.chunks() + " is missing");
            }
            all.write(data);
        }
        JournalFormat.read(all.toByteArray(), Path.of("zookeeper:" + dir), events);
    }

    /** The events read so far, oldest first. */
    public synchronized List<JournalEvent> events() {
        return List.copyOf(events);
    }

    /** The last log record read. */
    public synchronized long lastSequence() {
        return lastSequence;
    }

    synchronized Pointer pointer() {
        return pointer;
    }
}
