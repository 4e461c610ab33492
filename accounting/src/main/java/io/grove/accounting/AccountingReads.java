package io.grove.accounting;

import io.grove.core.accounting.JobRecord;
import io.grove.core.accounting.MeterKind;
import io.grove.core.accounting.Metering;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.resource.ResourceType;
import io.grove.core.resource.Resources;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.TreeMap;
import java.util.function.BiConsumer;

/**
 * The reports' queries on the store's reading connection: usage from the pools' days and hours or
 * from the jobs' records, and the job history. One thread at a time (the store holds it).
 */
final class AccountingReads {

    private static final String[] RESOURCE_COLUMNS = JdbcAccountingStore.RESOURCE_COLUMNS;
    private static final long DAY = JdbcAccountingStore.DAY;

    private final Connection reader;

    AccountingReads(Connection reader) {
        this.reader = reader;
    }

    List<UsageRow> usage(UsageQuery query) throws SQLException {
        return query.fromHours() ? usageFromHours(query) : usageFromJobs(query);
    }

    /**
     * From the pools' rows: whole days from {@code pool_days}, the hours before the first and after
     * the last whole day from {@code pool_hours}. The period is widened to whole hours.
     */
    private List<UsageRow> usageFromHours(UsageQuery query) throws SQLException {
        long since = Math.floorDiv(query.sinceMs(), 1000 * Metering.HOUR) * Metering.HOUR;
        long until = -Math.floorDiv(-query.untilMs(), 1000 * Metering.HOUR) * Metering.HOUR;
        if (query.untilMs() >= System.currentTimeMillis() - 1000) {
            // up to now: today's row holds exactly the hours metered so far, so it is read whole
            until = -Math.floorDiv(-until, DAY) * DAY;
        }
        long firstDay = -Math.floorDiv(-since, DAY) * DAY;
        long lastDay = Math.floorDiv(until, DAY) * DAY;
        long bucket = query.per() == null ? 0 : query.per().equals("hour") ? Metering.HOUR : DAY;
        Map<List<Object>, Map<String, double[]>> sums = new TreeMap<>((a, b) -> {
            for (int i = 0; i < 3; i++) {
                @SuppressWarnings("unchecked")
                int c = ((Comparable<Object>) a.get(i)).compareTo(b.get(i));
                if (c != 0) {
                    return c;
                }
            }
            return 0;
        });
        if (bucket != Metering.HOUR && firstDay < lastDay) {
            sum(sums, query, "pool_days", "day", firstDay, lastDay, bucket);
            sum(sums, query, "pool_hours", "hour", since, firstDay, bucket);
            sum(sums, query, "pool_hours", "hour", lastDay, until, bucket);
        } else {
            sum(sums, query, "pool_hours", "hour", since, until, bucket);
        }
        lostWork(query, since * 1000, until * 1000, bucket, (key, lost) -> sums.computeIfAbsent(key, k -> new TreeMap<>())
                .put(PREEMPTED, lost));
        List<UsageRow> rows = new ArrayList<>();
        sums.forEach((key, kinds) -> rows.add(new UsageRow((String) key.get(0), (String) key.get(1), named(kinds),
                bucket == 0 ? null : (Long) key.get(2))));
        return rows;
    }

    /** Adds the sums of a table's periods in {@code [from, to)}, by group (and by {@code bucket} seconds when above 0). */
    private void sum(Map<List<Object>, Map<String, double[]>> sums, UsageQuery query, String table, String period,
            long from, long to, long bucket) throws SQLException {
        if (from >= to) {
            return;
        }
        boolean byTree = query.by().equals("tree");
        String group = byTree ? "tree" : "tree, pool";
        String slot = bucket == 0 ? "0" : "(" + period + " - " + period + " % " + bucket + ")";
        StringBuilder sql = new StringBuilder("SELECT ").append(byTree ? "tree, tree" : "tree, pool").append(", ")
                .append(slot).append(", kind");
        for (String column : RESOURCE_COLUMNS) {
            sql.append(", SUM(").append(column).append(')');
        }
        sql.append(" FROM ").append(table).append(" WHERE ").append(period).append(" >= ? AND ").append(period).append(" < ?");
        List<Object> args = new ArrayList<>(List.of(from, to));
        // a tree's row is its root's: every pool's usage is in the pools above it too
        equal(sql, args, "tree", query.tree(), "pool", byTree ? PoolTreeConfig.ROOT : query.pool());
        sql.append(" GROUP BY ").append(group).append(bucket == 0 ? "" : ", " + slot).append(", kind");
        try (PreparedStatement select = reader.prepareStatement(sql.toString())) {
            bind(select, args);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    double[] values = sums.computeIfAbsent(List.of(rows.getString(1), rows.getString(2), rows.getLong(3)),
                            k -> new TreeMap<>()).computeIfAbsent(rows.getString(4), k -> new double[ResourceType.COUNT]);
                    for (int r = 0; r < ResourceType.COUNT; r++) {
                        values[r] += rows.getDouble(5 + r);
                    }
                }
            }
        }
    }

    /** Appends {@code AND column = ?} for each pair (column, value) whose value is given, and the value to {@code args}. */
    private static void equal(StringBuilder sql, List<? super String> args, String... pairs) {
        for (int i = 0; i < pairs.length; i += 2) {
            if (pairs[i + 1] != null) {
                sql.append(" AND ").append(pairs[i]).append(" = ?");
                args.add(pairs[i + 1]);
            }
        }
    }

    /** From the jobs' records: what each user's or operation's jobs held in the period (used only). */
    private List<UsageRow> usageFromJobs(UsageQuery query) throws SQLException {
        boolean byUser = query.by().equals("user");
        Map<String, Map<String, double[]>> kinds = new TreeMap<>(Comparator.nullsFirst(Comparator.naturalOrder()));
        StringBuilder where = new StringBuilder(" WHERE last_end_ms > ? AND first_start_ms < ?");
        List<Object> args = new ArrayList<>(List.of(query.sinceMs(), query.untilMs()));
        equal(where, args, "tree", query.tree(), "pool", query.pool(), "user_name", query.user());
        blocks(where.toString(), args, block -> {
            for (JobRecord job : block.records()) {
                if (job.endMs() <= query.sinceMs() || job.startMs() >= query.untilMs()) {
                    continue;
                }
                double seconds = (Math.min(job.endMs(), query.untilMs()) - Math.max(job.startMs(), query.sinceMs())) / 1000.0;
                double[] used = kinds.computeIfAbsent(byUser ? job.user() : job.operationId(), k -> new TreeMap<>())
                        .computeIfAbsent(MeterKind.USED.key(), k -> new double[ResourceType.COUNT]);
                double[] held = job.resources().toArray();
                for (int r = 0; r < ResourceType.COUNT; r++) {
                    used[r] += held[r] * seconds;
                }
            }
        });
        lostWork(query, query.sinceMs(), query.untilMs(), 0, (group, lost) -> kinds.computeIfAbsent((String) group.get(1),
                k -> new TreeMap<>()).put(PREEMPTED, lost));
        List<UsageRow> rows = new ArrayList<>();
        kinds.forEach((group, byKind) -> rows.add(new UsageRow(null, group, named(byKind))));
        return rows;
    }

    /** The kind of usage rows that holds the work lost to preemption (from the jobs' records). */
    static final String PREEMPTED = "preempted";

    /**
     * The work lost to preemption by the jobs that ended in {@code [fromMs, toMs)}: their resources
     * times their lost seconds, by the query's group (and by {@code bucket} seconds of their end when
     * above 0), each given to {@code into} with its key (tree or null, group, bucket).
     */
    private void lostWork(UsageQuery query, long fromMs, long toMs, long bucket,
            BiConsumer<List<Object>, double[]> into) throws SQLException {
        Map<List<Object>, double[]> sums = new LinkedHashMap<>();
        StringBuilder where = new StringBuilder(" WHERE lost > 0 AND last_end_ms >= ? AND first_end_ms < ?");
        List<Object> args = new ArrayList<>(List.of(fromMs, toMs));
        equal(where, args, "tree", query.tree(), "pool", query.pool(), "user_name", query.user());
        blocks(where.toString(), args, block -> {
            JobBlocks.Key key = block.key();
            String group = switch (query.by()) {
                case "tree" -> orEmpty(key.tree());
                case "pool" -> orEmpty(key.pool());
                case "user" -> orEmpty(key.user());
                default -> key.operationId();
            };
            String tree = query.fromHours() ? orEmpty(key.tree()) : "";
            for (JobRecord job : block.records()) {
                if (job.lostWorkSeconds() == null || job.endMs() < fromMs || job.endMs() >= toMs) {
                    continue;
                }
                long end = job.endMs() / 1000;
                double[] lost = sums.computeIfAbsent(List.of(tree, group, bucket == 0 ? 0L : end - end % bucket),
                        k -> new double[ResourceType.COUNT]);
                double[] held = job.resources().toArray();
                for (int r = 0; r < ResourceType.COUNT; r++) {
                    lost[r] += held[r] * job.lostWorkSeconds();
                }
            }
        });
        sums.forEach(into);
    }

    private static String orEmpty(String value) {
        return value == null ? "" : value;
    }

    /** Each block {@code where} selects (its arguments {@code args}), in no order. */
    private void blocks(String where, List<Object> args, BlockConsumer each) throws SQLException {
        try (PreparedStatement select = reader.prepareStatement("SELECT " + JobBlocks.COLUMNS + " FROM job_blocks" + where)) {
            bind(select, args);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    each.accept(JobBlocks.Stored.of(rows));
                }
            }
        }
    }

    private interface BlockConsumer {
        void accept(JobBlocks.Stored block) throws SQLException;
    }

    private static void bind(PreparedStatement statement, List<Object> args) throws SQLException {
        for (int i = 0; i < args.size(); i++) {
            Object arg = args.get(i);
            if (arg instanceof Long value) {
                statement.setLong(i + 1, value);
            } else {
                statement.setString(i + 1, (String) arg);
            }
        }
    }

    private static Map<String, Map<String, Double>> named(Map<String, double[]> kinds) {
        Map<String, Map<String, Double>> out = new LinkedHashMap<>();
        List<String> names = new ArrayList<>();
        for (MeterKind kind : MeterKind.values()) {
            names.add(kind.key());
        }
        names.add(PREEMPTED);
        for (String name : names) {
            double[] values = kinds.get(name);
            if (values == null) {
                continue;
            }
            Map<String, Double> resources = new LinkedHashMap<>();
            for (ResourceType r : ResourceType.values()) {
                resources.put(r.key(), values[r.ordinal()]);
            }
            out.put(name, resources);
        }
        return out;
    }

    /** How blocks are read for the job history: this many at first, twice as many each time after, up to 1,024. */
    static final int FIRST_PAGE = 32;

    /**
     * Ended jobs, the latest first ({@code end_ms} then the job's id, both descending). Blocks are
     * read by their last end, latest first; a record is given once no block still to be read can
     * hold a later one (every later block ends at or before the next block's last end).
     */
    List<JobRecord> jobs(JobQuery query) throws SQLException {
        StringBuilder where = new StringBuilder(" WHERE last_end_ms >= ? AND first_end_ms < ?");
        List<Object> args = new ArrayList<>(List.of(query.sinceMs(), query.untilMs()));
        equal(where, args, "user_name", query.user(), "tree", query.tree(), "pool", query.pool(), "operation_id",
                query.operation());
        if (query.visibleUser() != null || query.visiblePools() != null) {
            where.append(" AND (user_name = ?");
            args.add(query.visibleUser() == null ? "" : query.visibleUser());
            for (String pool : query.visiblePools() == null ? List.<String>of() : query.visiblePools()) {
                // a pool and every pool below it, by path (so the pools' jobs stay visible after they are removed)
                int colon = pool.indexOf(':');
                String path = pool.substring(colon + 1);
                where.append(" OR (tree = ? AND (pool_path = ? OR pool_path LIKE ? ESCAPE '\\'))");
                args.add(pool.substring(0, colon));
                args.add(path);
                args.add(path.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "/%");
            }
            where.append(')');
        }
        if (query.beforeEndMs() != null) {
            where.append(" AND first_end_ms <= ?");
            args.add(query.beforeEndMs());
        }
        Comparator<JobRecord> latestFirst = Comparator.comparingLong(JobRecord::endMs).thenComparing(JobRecord::jobId)
                .reversed();
        PriorityQueue<JobRecord> waiting = new PriorityQueue<>(latestFirst);
        List<JobRecord> out = new ArrayList<>();
        long[] after = null;   // the last block read: its last end and id
        int page = FIRST_PAGE;
        while (out.size() < query.limit()) {
            StringBuilder sql = new StringBuilder("SELECT ").append(JobBlocks.COLUMNS).append(", last_end_ms FROM job_blocks")
                    .append(where);
            List<Object> pageArgs = new ArrayList<>(args);
            if (after != null) {
                sql.append(" AND (last_end_ms < ? OR (last_end_ms = ? AND block_id < ?))");
                pageArgs.addAll(List.of(after[0], after[0], after[1]));
            }
            sql.append(" ORDER BY last_end_ms DESC, block_id DESC LIMIT ").append(page);
            int read = 0;
            try (PreparedStatement select = reader.prepareStatement(sql.toString())) {
                bind(select, pageArgs);
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next() && out.size() < query.limit()) {
                        read++;
                        JobBlocks.Stored block = JobBlocks.Stored.of(rows);
                        long lastEnd = rows.getLong(8);
                        after = new long[] {lastEnd, block.id()};
                        give(waiting, out, query.limit(), lastEnd);
                        for (JobRecord job : block.records()) {
                            if (wanted(job, query)) {
                                waiting.add(job);
                            }
                        }
                    }
                }
            }
            if (read < page) {
                break;
            }
            page = Math.min(1_024, page * 2);
        }
        give(waiting, out, query.limit(), Long.MIN_VALUE);
        return out;
    }

    /** Moves to {@code out} the waiting records that end after {@code afterMs}, latest first, once each. */
    private static void give(PriorityQueue<JobRecord> waiting, List<JobRecord> out, int limit, long afterMs) {
        while (out.size() < limit && !waiting.isEmpty() && waiting.peek().endMs() > afterMs) {
            JobRecord next = waiting.poll();
            JobRecord last = out.isEmpty() ? null : out.get(out.size() - 1);
            if (last == null || last.endMs() != next.endMs() || !last.jobId().equals(next.jobId())) {
                out.add(next);
            }
        }
    }

    /** Whether a record of a selected block is one the query asks for (its block may hold others). */
    private static boolean wanted(JobRecord job, JobQuery query) {
        if (job.endMs() < query.sinceMs() || job.endMs() >= query.untilMs()) {
            return false;
        }
        if (query.state() != null && !query.state().equals(job.state())) {
            return false;
        }
        return query.beforeEndMs() == null || job.endMs() < query.beforeEndMs()
                || job.endMs() == query.beforeEndMs() && job.jobId().compareTo(query.beforeJob() == null ? "" : query.beforeJob()) < 0;
    }

    /** How many job records the blocks hold. */
    long jobRecords() throws SQLException {
        try (Statement statement = reader.createStatement();
                ResultSet rows = statement.executeQuery("SELECT COALESCE(SUM(records), 0) FROM job_blocks")) {
            rows.next();
            return rows.getLong(1);
        }
    }

    long count(String table) throws SQLException {
        if (!table.matches("[a-z_]+")) {
            throw new IllegalArgumentException(table);
        }
        try (Statement statement = reader.createStatement();
                ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM " + table)) {
            rows.next();
            return rows.getLong(1);
        }
    }
}
