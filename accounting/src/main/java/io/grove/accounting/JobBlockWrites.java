package io.grove.accounting;

import io.grove.core.accounting.JobRecord;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Writes job records as blocks ({@link JobBlocks}), each kept once however often it is written, on
 * the store's writing connection inside its transaction.
 *
 * <p><b>Once.</b> There is no key per record to refuse a second copy; the writer knows instead
 * ({@link SeenJobs}). Before its first write it claims the ledger: it moves the writers' epoch, and
 * every later transaction of it moves on only while the epoch is still its own, so a scheduler that
 * lost its lead writes nothing once another claimed, and everything it wrote before is in the
 * database when the new one reads. A record is written again only with the same start, and it ended
 * at or after it; so for an operation the writer reads the ids of its blocks that end at or after
 * the earliest start it is given (once, then only further back), and with what it wrote itself since,
 * knows exactly which records are new. In a steady cluster a job started after the writer claimed
 * is checked in memory alone.
 */
final class JobBlockWrites {

    /** A write of a scheduler that is no longer the ledger's writer. */
    static final class Deposed extends SQLException {
        Deposed(long mine, String now) {
            super("another scheduler writes the ledger now (the writers' epoch is " + now + ", this one's was " + mine
                    + "): this one writes nothing more");
        }
    }

    static final String INSERT = "INSERT INTO job_blocks (operation_id, user_name, tree, pool, pool_path, first_end_ms, "
            + "last_end_ms, first_start_ms, records, lost, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

    private final SeenJobs seen;
    /** This writer's epoch, once it claimed the ledger; -1 before. */
    private long epoch = -1;

    JobBlockWrites(SeenJobs seen) {
        this.seen = seen;
    }

    /**
     * Moves on the writers' epoch, or fails if it is no longer this writer's (claims it on the first
     * write, in a transaction of its own).
     */
    void fence(Connection writer) throws SQLException {
        if (epoch < 0) {
            try (PreparedStatement make = writer.prepareStatement(
                    "INSERT INTO ledger_writer (id, epoch) VALUES (1, 0) ON CONFLICT (id) DO NOTHING");
                    PreparedStatement claim = writer.prepareStatement("UPDATE ledger_writer SET epoch = epoch + 1 WHERE id = 1")) {
                make.executeUpdate();
                claim.executeUpdate();
            }
            long claimed = current(writer);
            writer.commit();
            epoch = claimed;
            seen.clear();   // what another writer wrote before is read again
        }
        try (PreparedStatement hold = writer.prepareStatement(
                "UPDATE ledger_writer SET epoch = epoch WHERE id = 1 AND epoch = ?")) {
            hold.setLong(1, epoch);
            if (hold.executeUpdate() != 1) {
                throw new Deposed(epoch, String.valueOf(current(writer)));
            }
        }
    }

    private static long current(Connection writer) throws SQLException {
        try (PreparedStatement read = writer.prepareStatement("SELECT epoch FROM ledger_writer WHERE id = 1");
                ResultSet row = read.executeQuery()) {
            return row.next() ? row.getLong(1) : -1;
        }
    }

    /**
     * Inserts, in the writer's transaction, the records the database does not hold yet, as blocks by
     * operation and pool; returns them. {@link #committed} must follow the commit.
     */
    List<JobRecord> insert(Connection writer, List<JobRecord> jobs, List<JobRecord> inserted) throws SQLException {
        Map<JobBlocks.Key, List<JobRecord>> groups = new LinkedHashMap<>();
        Map<String, Long> earliest = new LinkedHashMap<>();
        for (JobRecord job : jobs) {
            groups.computeIfAbsent(JobBlocks.Key.of(job), k -> new ArrayList<>()).add(job);
            earliest.merge(job.operationId(), Math.min(job.startMs(), job.endMs()), Math::min);
        }
        // every read before any insert: what is read is then what other transactions committed
        for (Map.Entry<String, Long> operation : earliest.entrySet()) {
            cover(writer, operation.getKey(), operation.getValue());
        }
        Set<String> batch = new HashSet<>();
        try (PreparedStatement insert = writer.prepareStatement(INSERT)) {
            for (Map.Entry<JobBlocks.Key, List<JobRecord>> group : groups.entrySet()) {
                JobBlocks.Key key = group.getKey();
                SeenJobs.Seen known = seen.of(key.operationId());
                List<JobRecord> fresh = new ArrayList<>();
                for (JobRecord job : group.getValue()) {
                    if (!known.contains(key.operationId(), job.jobId()) && batch.add(job.jobId())) {
                        fresh.add(job);
                    }
                }
                for (int from = 0; from < fresh.size(); from += JobBlocks.MAX_RECORDS) {
                    List<JobRecord> block = fresh.subList(from, Math.min(fresh.size(), from + JobBlocks.MAX_RECORDS));
                    bind(insert, key, block);
                    insert.addBatch();
                    inserted.addAll(block);
                }
            }
            if (!inserted.isEmpty()) {
                insert.executeBatch();
            }
        }
        seen.trim(earliest.keySet());
        return inserted;
    }

    /** After the commit of a transaction that inserted {@code inserted}: they are in the database. */
    void committed(List<JobRecord> inserted) {
        for (JobRecord job : inserted) {
            seen.make(job.operationId()).add(job.operationId(), job.jobId());
        }
    }

    /** After a failed transaction: whether its records got in is not known, so what is known is read again. */
    void failed() {
        seen.clear();
    }

    /** Reads the ids of an operation's blocks that end at or after {@code fromMs}, if not read yet. */
    private void cover(Connection writer, String operationId, long fromMs) throws SQLException {
        SeenJobs.Seen known = seen.make(operationId);
        if (known.coveredFromMs <= fromMs) {
            return;
        }
        try (PreparedStatement read = writer.prepareStatement("SELECT " + JobBlocks.COLUMNS
                + " FROM job_blocks WHERE operation_id = ? AND last_end_ms >= ? AND last_end_ms < ?")) {
            read.setString(1, operationId);
            read.setLong(2, fromMs);
            read.setLong(3, known.coveredFromMs);
            try (ResultSet rows = read.executeQuery()) {
                while (rows.next()) {
                    for (JobRecord job : JobBlocks.Stored.of(rows).records()) {
                        known.add(operationId, job.jobId());
                    }
                }
            }
        }
        known.coveredFromMs = fromMs;
    }

    /** Binds {@link #INSERT} to a block of {@code block}'s records, all of {@code key}. */
    static void bind(PreparedStatement insert, JobBlocks.Key key, List<JobRecord> block) throws SQLException {
        Bounds bounds = Bounds.of(block);
        insert.setString(1, key.operationId());
        insert.setString(2, key.user());
        insert.setString(3, key.tree());
        insert.setString(4, key.pool());
        insert.setString(5, key.poolPath());
        insert.setLong(6, bounds.firstEnd);
        insert.setLong(7, bounds.lastEnd);
        insert.setLong(8, bounds.firstStart);
        insert.setInt(9, block.size());
        insert.setInt(10, bounds.lost);
        insert.setBytes(11, JobBlocks.encode(key, block));
    }

    /** A block's columns that its records give: the first and last end, the first start, how many lost work. */
    private record Bounds(long firstEnd, long lastEnd, long firstStart, int lost) {
        static Bounds of(List<JobRecord> block) {
            long firstEnd = Long.MAX_VALUE;
            long lastEnd = Long.MIN_VALUE;
            long firstStart = Long.MAX_VALUE;
            int lost = 0;
            for (JobRecord job : block) {
                firstEnd = Math.min(firstEnd, job.endMs());
                lastEnd = Math.max(lastEnd, job.endMs());
                firstStart = Math.min(firstStart, job.startMs());
                lost += job.lostWorkSeconds() != null ? 1 : 0;
            }
            return new Bounds(firstEnd, lastEnd, firstStart, lost);
        }
    }

    /**
     * Removes the records that ended before {@code cutoffMs}: the blocks that ended wholly before it,
     * and from a block across it the records before it (the block is written again with the rest).
     * Returns how many records were removed.
     */
    int expire(Connection writer, long cutoffMs) throws SQLException {
        int removed = 0;
        try (PreparedStatement count = writer.prepareStatement(
                "SELECT COALESCE(SUM(records), 0) FROM job_blocks WHERE last_end_ms < ?");
                PreparedStatement delete = writer.prepareStatement("DELETE FROM job_blocks WHERE last_end_ms < ?")) {
            count.setLong(1, cutoffMs);
            try (ResultSet sum = count.executeQuery()) {
                sum.next();
                removed += (int) sum.getLong(1);
            }
            delete.setLong(1, cutoffMs);
            delete.executeUpdate();
        }
        List<JobBlocks.Stored> across = new ArrayList<>();
        try (PreparedStatement read = writer.prepareStatement("SELECT " + JobBlocks.COLUMNS
                + " FROM job_blocks WHERE first_end_ms < ?")) {
            read.setLong(1, cutoffMs);
            try (ResultSet rows = read.executeQuery()) {
                while (rows.next()) {
                    across.add(JobBlocks.Stored.of(rows));
                }
            }
        }
        try (PreparedStatement update = writer.prepareStatement("UPDATE job_blocks SET first_end_ms = ?, "
                + "first_start_ms = ?, records = ?, lost = ?, data = ? WHERE block_id = ?")) {
            for (JobBlocks.Stored block : across) {
                List<JobRecord> kept = new ArrayList<>();
                List<JobRecord> all = block.records();
                for (JobRecord job : all) {
                    if (job.endMs() >= cutoffMs) {
                        kept.add(job);
                    }
                }
                removed += all.size() - kept.size();
                Bounds bounds = Bounds.of(kept);
                update.setLong(1, bounds.firstEnd);
                update.setLong(2, bounds.firstStart);
                update.setInt(3, kept.size());
                update.setInt(4, bounds.lost);
                update.setBytes(5, JobBlocks.encode(block.key(), kept));
                update.setLong(6, block.id());
                update.addBatch();
            }
            if (!across.isEmpty()) {
                update.executeBatch();
            }
        }
        return removed;
    }
}
