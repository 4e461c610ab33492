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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
    private final boolean postgres;

    AccountingReads(Connection reader, boolean postgres) {
        this.reader = reader;
        this.postgres = postgres;
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
        List<String> args = new ArrayList<>();
        // a tree's row is its root's: every pool's usage is in the pools above it too
        equal(sql, args, "tree", query.tree(), "pool", byTree ? PoolTreeConfig.ROOT : query.pool());
        sql.append(" GROUP BY ").append(group).append(bucket == 0 ? "" : ", " + slot).append(", kind");
        try (PreparedStatement select = reader.prepareStatement(sql.toString())) {
            select.setLong(1, from);
            select.setLong(2, to);
            for (int i = 0; i < args.size(); i++) {
                select.setString(3 + i, args.get(i));
            }
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
        String least = postgres ? "LEAST" : "MIN";
        String greatest = postgres ? "GREATEST" : "MAX";
        String overlap = "(" + least + "(end_ms, ?) - " + greatest + "(start_ms, ?)) / 1000.0";
        String key = query.by().equals("user") ? "user_name" : "operation_id";
        StringBuilder sql = new StringBuilder("SELECT ").append(key);
        for (String column : RESOURCE_COLUMNS) {
            sql.append(", SUM(").append(column).append(" * ").append(overlap).append(')');
        }
        sql.append(" FROM job_records WHERE end_ms > ? AND start_ms < ?");
        List<String> args = new ArrayList<>();
        equal(sql, args, "tree", query.tree(), "pool", query.pool(), "user_name", query.user());
        sql.append(" GROUP BY ").append(key).append(" ORDER BY ").append(key);
        Map<String, Map<String, double[]>> kinds = new LinkedHashMap<>();
        try (PreparedStatement select = reader.prepareStatement(sql.toString())) {
            int i = 1;
            for (int r = 0; r < RESOURCE_COLUMNS.length; r++) {
                select.setLong(i++, query.untilMs());
                select.setLong(i++, query.sinceMs());
            }
            select.setLong(i++, query.sinceMs());
            select.setLong(i++, query.untilMs());
            for (String arg : args) {
                select.setString(i++, arg);
            }
            try (ResultSet result = select.executeQuery()) {
                while (result.next()) {
                    double[] used = new double[ResourceType.COUNT];
                    for (int r = 0; r < ResourceType.COUNT; r++) {
                        used[r] = result.getDouble(2 + r);
                    }
                    kinds.put(result.getString(1), new TreeMap<>(Map.of(MeterKind.USED.key(), used)));
                }
            }
        }
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
        String key = switch (query.by()) {
            case "tree" -> "COALESCE(tree, '')";
            case "pool" -> "COALESCE(pool, '')";
            case "user" -> "COALESCE(user_name, '')";
            default -> "operation_id";
        };
        String tree = query.fromHours() ? "COALESCE(tree, '')" : "''";
        String slot = bucket == 0 ? "0" : "(end_ms / 1000 - (end_ms / 1000) % " + bucket + ")";
        StringBuilder sql = new StringBuilder("SELECT ").append(tree).append(", ").append(key).append(", ").append(slot);
        for (String column : RESOURCE_COLUMNS) {
            sql.append(", SUM(").append(column).append(" * lost_work_seconds)");
        }
        sql.append(" FROM job_records WHERE lost_work_seconds IS NOT NULL AND end_ms >= ? AND end_ms < ?");
        List<String> args = new ArrayList<>();
        equal(sql, args, "tree", query.tree(), "pool", query.pool(), "user_name", query.user());
        sql.append(" GROUP BY ").append(tree.equals("''") ? "" : tree + ", ").append(key)
                .append(bucket == 0 ? "" : ", " + slot);
        try (PreparedStatement select = reader.prepareStatement(sql.toString())) {
            select.setLong(1, fromMs);
            select.setLong(2, toMs);
            for (int i = 0; i < args.size(); i++) {
                select.setString(3 + i, args.get(i));
            }
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    double[] lost = new double[ResourceType.COUNT];
                    for (int r = 0; r < ResourceType.COUNT; r++) {
                        lost[r] = rows.getDouble(4 + r);
                    }
                    into.accept(List.of(rows.getString(1), rows.getString(2), rows.getLong(3)), lost);
                }
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

    List<JobRecord> jobs(JobQuery query) throws SQLException {
        StringBuilder sql = new StringBuilder("SELECT job_id, operation_id, task, job_index, attempt, user_name, tree, pool, "
                + "pool_path, node, user_slots, cpu, gpu, memory, network, start_ms, end_ms, state, exit_code, reason, "
                + "message, cpu_seconds, gpu_seconds, lost_work_seconds FROM job_records WHERE end_ms >= ? AND end_ms < ?");
        List<Object> args = new ArrayList<>(List.of(query.sinceMs(), query.untilMs()));
        equal(sql, args, "user_name", query.user(), "tree", query.tree(), "pool", query.pool(), "state", query.state(),
                "operation_id", query.operation());
        if (query.visibleUser() != null || query.visiblePools() != null) {
            sql.append(" AND (user_name = ?");
            args.add(query.visibleUser() == null ? "" : query.visibleUser());
            for (String pool : query.visiblePools() == null ? List.<String>of() : query.visiblePools()) {
                // a pool and every pool below it, by path (so the pools' jobs stay visible after they are removed)
                int colon = pool.indexOf(':');
                String path = pool.substring(colon + 1);
                sql.append(" OR (tree = ? AND (pool_path = ? OR pool_path LIKE ? ESCAPE '\\'))");
                args.add(pool.substring(0, colon));
                args.add(path);
                args.add(path.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "/%");
            }
            sql.append(')');
        }
        if (query.beforeEndMs() != null) {
            sql.append(" AND (end_ms < ? OR (end_ms = ? AND job_id < ?))");
            args.add(query.beforeEndMs());
            args.add(query.beforeEndMs());
            args.add(query.beforeJob() == null ? "" : query.beforeJob());
        }
        sql.append(" ORDER BY end_ms DESC, job_id DESC LIMIT ").append(query.limit());
        try (PreparedStatement select = reader.prepareStatement(sql.toString())) {
            for (int i = 0; i < args.size(); i++) {
                Object arg = args.get(i);
                if (arg instanceof Long value) {
                    select.setLong(i + 1, value);
                } else {
                    select.setString(i + 1, (String) arg);
                }
            }
            List<JobRecord> jobs = new ArrayList<>();
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    jobs.add(job(rows));
                }
            }
            return jobs;
        }
    }

    private static JobRecord job(ResultSet row) throws SQLException {
        Resources resources = new Resources(row.getDouble(11), row.getDouble(12), row.getDouble(13), row.getDouble(14),
                row.getDouble(15));
        int exit = row.getInt(19);
        Integer exitCode = row.wasNull() ? null : exit;
        double cpuSeconds = row.getDouble(22);
        Double cpu = row.wasNull() ? null : cpuSeconds;
        double lostSeconds = row.getDouble(24);
        Double lost = row.wasNull() ? null : lostSeconds;
        return new JobRecord(row.getString(1), row.getString(2), row.getString(3), row.getInt(4), row.getInt(5),
                row.getString(6), row.getString(7), row.getString(8), row.getString(9), row.getString(10), resources,
                row.getLong(16), row.getLong(17), row.getString(18), exitCode, row.getString(20), row.getString(21), cpu,
                row.getDouble(23), lost);
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
