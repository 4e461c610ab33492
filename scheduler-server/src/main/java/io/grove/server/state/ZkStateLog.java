package io.grove.server.state;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.grove.protocol.ProtocolJson;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduler's state in ZooKeeper ({@link ZkLayout}), written by the leader of one epoch. One
 * writer thread takes every queued event, writes them as one log record (a group commit; a batch
 * above {@link #MAX_PART} goes in several parts), and completes their futures once ZooKeeper has
 * it. Every write is a transaction that first checks the epoch znode's version: once another
 * scheduler has claimed a newer epoch, this one's writes are refused ({@link Fenced}), it is told
 * through {@code onFenced}, and nothing more of it is written. {@link #compact} writes a snapshot
 * in chunks, points to it and removes the records it covers.
 */
public final class ZkStateLog extends QueuedStateLog {

    private static final Logger LOG = LoggerFactory.getLogger(ZkStateLog.class);
    private static final ObjectMapper JSON = ProtocolJson.mapper();

    /** The most bytes of events in one znode, well within ZooKeeper's 1 MiB request limit. */
    static final int MAX_PART = 512 * 1024;

    /** Deletes per transaction when a compaction removes what its snapshot covers. */
    private static final int DELETES_PER_TRANSACTION = 200;

    /** The epoch a leader claimed: its number and the epoch znode's version that fences its writes. */
    public record Epoch(long number, int version) {
    }

    /** A write refused because a newer leader claimed the epoch, or after such a refusal. */
    public static final class Fenced extends IllegalStateException {
        Fenced(String message) {
            super(message);
        }
    }

    private final CuratorFramework zk;
    private final ZkLayout layout;
    private final Epoch epoch;
    private final Runnable onFenced;
    private final AtomicBoolean fenced = new AtomicBoolean();
    private ZkLogReader.Pointer pointer;
    private long lastSequence;
    private long batchIds;

    private ZkStateLog(CuratorFramework zk, ZkLayout layout, Epoch epoch, ZkLogReader reader, Runnable onFenced) {
        super("state log", reader.events());
        this.zk = zk;
        this.layout = layout;
        this.epoch = epoch;
        this.onFenced = onFenced;
        this.pointer = reader.pointer();
        this.lastSequence = reader.lastSequence();
        this.batchIds = epoch.number() << 32;
        startWriter("grove-zk-log");
    }

    /**
     * Claims the next epoch: from now on only writes checked against the returned version go
     * through. Creates the epoch znode at the first claim.
     */
    public static Epoch claimEpoch(CuratorFramework zk, ZkLayout layout) throws Exception {
        while (true) {
            Stat stat = new Stat();
            byte[] data;
            try {
                data = zk.getData().storingStatIn(stat).forPath(layout.epoch());
            } catch (KeeperException.NoNodeException e) {
                try {
                    zk.create().creatingParentContainersIfNeeded().forPath(layout.epoch(), longBytes(0));
                } catch (KeeperException.NodeExistsException raced) {
                    // another scheduler created it first
                }
                continue;
            }
            long next = ByteBuffer.wrap(data).getLong() + 1;
            try {
                Stat written = zk.setData().withVersion(stat.getVersion()).forPath(layout.epoch(), longBytes(next));
                return new Epoch(next, written.getVersion());
            } catch (KeeperException.BadVersionException raced) {
                // another scheduler claimed one meanwhile: claim the one after it
            }
        }
    }

    /**
     * Opens the log for the leader of {@code epoch}: reads what {@code reader} has not read yet (after
     * the epoch's claim nobody else writes) and takes its events as {@link #recovered()}.
     */
    public static ZkStateLog open(CuratorFramework zk, ZkLayout layout, Epoch epoch, ZkLogReader reader,
            Runnable onFenced) throws Exception {
        zk.createContainers(layout.log());
        reader.catchUp();
        return new ZkStateLog(zk, layout, epoch, reader, onFenced);
    }

    public Epoch epoch() {
        return epoch;
    }

    @Override
    RuntimeException refusal() {
        return fenced.get() ? fencedError() : super.refusal();
    }

    /** One group commit: every queued event in one record (or several parts), then their futures. */
    @Override
    void writeGroup(List<Append> batch) {
        if (fenced.get()) {
            failed(batch, fencedError());
            return;
        }
        RecordBuffer bytes = new RecordBuffer();
        long sequence = 1;
        for (Append append : batch) {
            JournalFormat.encode(append.event(), sequence++, bytes);
        }
        try {
            writeParts(bytes.toByteArray(), ++batchIds);
            stored(batch.size());
            completed(batch);
        } catch (Exception e) {
            RuntimeException failure = failure(e, "write " + batch.size() + " event(s)");
            failed(batch, failure);
        }
    }

    private void writeParts(byte[] data, long batch) throws Exception {
        for (int from = 0; from < data.length || from == 0; from += MAX_PART) {
            int length = Math.min(MAX_PART, data.length - from);
            boolean last = from + length >= data.length;
            ByteBuffer part = ByteBuffer.allocate(9 + length).put((byte) (last ? 0 : 1)).putLong(batch);
            part.put(data, from, length);
            String created = fencedCreate(layout.logRecord(), part.array(), CreateMode.PERSISTENT_SEQUENTIAL);
            lastSequence = ZkLayout.sequenceOf(created);
            if (last) {
                return;
            }
        }
    }

    private String fencedCreate(String path, byte[] data, CreateMode mode) throws Exception {
        var results = zk.transaction().forOperations(check(), zk.transactionOp().create().withMode(mode).forPath(path, data));
        return results.get(1).getResultPath();
    }

    private CuratorOp check() throws Exception {
        return zk.transactionOp().check().withVersion(epoch.version()).forPath(layout.epoch());
    }

    @Override
    void compactTo(List<JournalEvent> events) throws Exception {
        if (fenced.get()) {
            throw fencedError();
        }
        RecordBuffer bytes = new RecordBuffer();
        long sequence = 1;
        for (int i = 0; i < events.size(); i++) {
            JournalFormat.encode(events, i, sequence++, bytes);
        }
        byte[] data = bytes.toByteArray();
        long id = Math.max(pointer.id(), epoch.number() << 20) + 1;
        String dir = snapshotPath(layout, id);
        int chunks = Math.max(1, (data.length + MAX_PART - 1) / MAX_PART);
        if (zk.checkExists().forPath(layout.snapshots()) == null) {
            try {
                zk.create().creatingParentContainersIfNeeded().forPath(layout.snapshots());
            } catch (KeeperException.NodeExistsException raced) {
                // made meanwhile: the same
            }
        }
        // the snapshot's directory and every chunk are written fenced, as every write of the leader
        zk.transaction().forOperations(check(), zk.transactionOp().create().forPath(dir));
        for (int chunk = 0; chunk < chunks; chunk++) {
            int from = chunk * MAX_PART;
            byte[] part = Arrays.copyOfRange(data, from, Math.min(data.length, from + MAX_PART));
            zk.transaction().forOperations(check(), zk.transactionOp().create().forPath(chunkPath(dir, chunk), part));
        }
        ZkLogReader.Pointer next = new ZkLogReader.Pointer(id, chunks, lastSequence);
        byte[] written = JSON.writeValueAsBytes(next);
        if (zk.checkExists().forPath(layout.snapshot()) == null) {
            zk.transaction().forOperations(check(), zk.transactionOp().create().forPath(layout.snapshot(), written));
        } else {
            zk.transaction().forOperations(check(), zk.transactionOp().setData().forPath(layout.snapshot(), written));
        }
        pointer = next;
        restarted(events.size());
        removeCovered(next);
    }

    @Override
    Throwable compactionFailed(Exception e) {
        return e instanceof Fenced ? e : failure(e, "compact");
    }

    /** Removes the log records and the older snapshots the new snapshot covers, fenced like every write. */
    private void removeCovered(ZkLogReader.Pointer current) throws Exception {
        List<String> paths = new ArrayList<>();
        for (String child : zk.getChildren().forPath(layout.log())) {
            if (ZkLayout.sequenceOf(child) <= current.through()) {
                paths.add(layout.log() + "/" + child);
            }
        }
        String keep = snapshotPath(layout, current.id());
        for (String snapshot : zk.getChildren().forPath(layout.snapshots())) {
            String dir = layout.snapshots() + "/" + snapshot;
            if (!dir.equals(keep)) {
                for (String chunk : zk.getChildren().forPath(dir)) {
                    paths.add(dir + "/" + chunk);
                }
                paths.add(dir);
            }
        }
        for (int from = 0; from < paths.size(); from += DELETES_PER_TRANSACTION) {
            List<CuratorOp> ops = new ArrayList<>();
            ops.add(check());
            for (String path : paths.subList(from, Math.min(paths.size(), from + DELETES_PER_TRANSACTION))) {
                ops.add(zk.transactionOp().delete().forPath(path));
            }
            zk.transaction().forOperations(ops);
        }
    }

    /** Why a write failed; a refused epoch check fences this log for good and tells the daemon once. */
    private RuntimeException failure(Exception e, String what) {
        if (e instanceof KeeperException.BadVersionException || e instanceof KeeperException.NoNodeException
                && layout.epoch().equals(((KeeperException) e).getPath())) {
            if (fenced.compareAndSet(false, true)) {
                LOG.error("ZooKeeper refused to {}: a newer leader claimed epoch {} or later; this scheduler stops "
                        + "writing", what, epoch.number() + 1);
                onFenced.run();
            }
            return fencedError();
        }
        LOG.error("ZooKeeper: cannot {}: {}", what, e.toString());
        if (e instanceof KeeperException.ConnectionLossException || e instanceof KeeperException.OperationTimeoutException
                || e instanceof KeeperException.SessionExpiredException) {
            return new WriteAhead.OutcomeUnknown("ZooKeeper: the connection was lost while trying to " + what
                    + "; whether it was written is unknown", e);
        }
        return new IllegalStateException("ZooKeeper: cannot " + what + ": " + e.getMessage(), e);
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

    private static byte[] longBytes(long value) {
        return ByteBuffer.allocate(8).putLong(value).array();
    }

}
