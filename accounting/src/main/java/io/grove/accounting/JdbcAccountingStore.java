package io.grove.accounting;

import io.grove.core.accounting.HourlyUsage;
import io.grove.core.accounting.JobRecord;
import io.grove.core.accounting.MeterKind;
import io.grove.core.accounting.Metering;
import io.grove.core.accounting.OperationRecord;
import io.grove.core.resource.ResourceType;
import io.grove.core.resource.Resources;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.flywaydb.core.Flyway;

/**
 * The accounting store on a JDBC database: SQLite (a file, write-ahead logging, the default) or
 * PostgreSQL. The schema is Flyway's ({@code db/migration}), the same SQL for both. One connection
 * writes (the ledger's thread), another reads (reports); each is used by one thread at a time.
 */
public final class JdbcAccountingStore implements AccountingStore {

    private static final String[] RESOURCE_COLUMNS = {"user_slots", "cpu", "gpu", "memory", "network"};
    private static final long DAY = 86_400;

    private final String url;
    private final boolean postgres;
    private final Connection writer;
    private final Connection reader;

    private JdbcAccountingStore(String url, Properties properties) throws AccountingException {
        this.url = url;
        this.postgres = url.startsWith("jdbc:postgresql:");
        try {
            Flyway.configure().dataSource(url, properties.getProperty("user"), properties.getProperty("password"))
                    .locations("classpath:db/migration").load().migrate();
            this.writer = connect(url, properties);
            this.reader = connect(url, properties);
            writer.setAutoCommit(false);
        } catch (SQLException | RuntimeException e) {
            throw new AccountingException("cannot open the accounting database " + redacted(url) + ": " + e.getMessage(), e);
        }
    }

    /**
     * A SQLite database in {@code file} (made with its schema when new). A new file is made 0600
     * first: SQLite gives its journal files the database file's mode.
     */
    public static JdbcAccountingStore sqlite(Path file) throws AccountingException {
        try {
            if (!java.nio.file.Files.exists(file)) {
                java.nio.file.Files.createFile(file, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                        java.nio.file.attribute.PosixFilePermissions.fromString("rw-------")));
            }
        } catch (java.io.IOException e) {
            throw new AccountingException("cannot make the accounting database " + file + ": " + e.getMessage(), e);
        }
        return new JdbcAccountingStore("jdbc:sqlite:" + file.toAbsolutePath(), new Properties());
    }

    /**
     * A database by JDBC URL: {@code jdbc:postgresql://HOST:PORT/DB} (the user and password given
     * apart, never in the URL) or {@code jdbc:sqlite:PATH}.
     */
    public static JdbcAccountingStore open(String url, String user, String password) throws AccountingException {
        if (!url.startsWith("jdbc:postgresql:") && !url.startsWith("jdbc:sqlite:")) {
            throw new AccountingException("the accounting database must be jdbc:postgresql://... or jdbc:sqlite:..., got "
                    + redacted(url), null);
        }
        Properties properties = new Properties();
        if (user != null) {
            properties.setProperty("user", user);
        }
        if (password != null) {
            properties.setProperty("password", password);
        }
        return new JdbcAccountingStore(url, properties);
    }

    private static Connection connect(String url, Properties properties) throws SQLException {
        Connection connection = DriverManager.getConnection(url, properties);
        if (url.startsWith("jdbc:sqlite:")) {
            try (Statement statement = connection.createStatement()) {
                statement.execute("PRAGMA journal_mode=WAL");
                statement.execute("PRAGMA synchronous=FULL");
                statement.execute("PRAGMA busy_timeout=2000");
                // the job table's indexes take keys in every order: 64 MiB of pages keeps them off the disk
                statement.execute("PRAGMA cache_size=-65536");
            }
        }
        return connection;
    }

    /** The URL without what may follow a {@code ?} (a password in a query string). */
    static String redacted(String url) {
        int query = url.indexOf('?');
        return query < 0 ? url : url.substring(0, query) + "?...";
    }

    @Override
    public String describe() {
        return redacted(url).replace("jdbc:", "");
    }

    // ---------------------------------------------------------------- writing

    @Override
    public synchronized List<String> write(AccountingBatch batch) throws AccountingException {
        List<String> moved = new ArrayList<>();
        try {
            insertJobs(batch.jobs());
            insertOperations(batch.operations());
            Map<String, List<HourlyUsage>> byTree = new LinkedHashMap<>();
            for (HourlyUsage row : batch.hours()) {
                byTree.computeIfAbsent(row.tree(), t -> new ArrayList<>()).add(row);
            }
            for (Map.Entry<String, long[]> mark : batch.marks().entrySet()) {
                if (!moveMark(mark.getKey(), mark.getValue()[0], mark.getValue()[1])) {
                    moved.add(mark.getKey());
                    continue;
                }
                addHours(byTree.getOrDefault(mark.getKey(), List.of()));
            }
            writer.commit();
            return moved;
        } catch (SQLException | RuntimeException e) {
            try {
                writer.rollback();
            } catch (SQLException rollback) {
                e.addSuppressed(rollback);
            }
            throw new AccountingException("the accounting database refused a write: " + e.getMessage(), e);
        }
    }

    private void insertJobs(List<JobRecord> jobs) throws SQLException {
        if (jobs.isEmpty()) {
            return;
        }
        try (PreparedStatement insert = writer.prepareStatement("INSERT INTO job_records (job_id, operation_id, task, "
                + "job_index, attempt, user_name, tree, pool, pool_path, node, user_slots, cpu, gpu, memory, network, "
                + "start_ms, end_ms, state, exit_code, reason, message, cpu_seconds, gpu_seconds) VALUES "
                + "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (job_id) DO NOTHING")) {
            for (JobRecord job : jobs) {
                int i = 1;
                insert.setString(i++, job.jobId());
                insert.setString(i++, job.operationId());
                insert.setString(i++, job.task());
                insert.setInt(i++, job.index());
                insert.setInt(i++, job.attempt());
                insert.setString(i++, job.user());
                insert.setString(i++, job.tree());
                insert.setString(i++, job.pool());
                insert.setString(i++, job.poolPath());
                insert.setString(i++, job.node());
                for (ResourceType r : ResourceType.values()) {
                    insert.setDouble(i++, job.resources().get(r));
                }
                insert.setLong(i++, job.startMs());
                insert.setLong(i++, job.endMs());
                insert.setString(i++, job.state());
                if (job.exitCode() == null) {
                    insert.setNull(i++, Types.INTEGER);
                } else {
                    insert.setInt(i++, job.exitCode());
                }
                insert.setString(i++, job.reason());
                insert.setString(i++, job.message());
                if (job.cpuSeconds() == null) {
                    insert.setNull(i++, Types.DOUBLE);
                } else {
                    insert.setDouble(i++, job.cpuSeconds());
                }
                insert.setDouble(i, job.gpuSeconds());
                insert.addBatch();
            }
            insert.executeBatch();
        }
    }

    private void insertOperations(List<OperationRecord> operations) throws SQLException {
        if (operations.isEmpty()) {
            return;
        }
        try (PreparedStatement insert = writer.prepareStatement("INSERT INTO operation_records (operation_id, user_name, "
                + "title, pools, weight, submitted_ms, finished_ms, state, completed, failed, aborted, message) VALUES "
                + "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (operation_id) DO NOTHING")) {
            for (OperationRecord operation : operations) {
                insert.setString(1, operation.operationId());
                insert.setString(2, operation.user());
                insert.setString(3, operation.title());
                insert.setString(4, operation.pools());
                insert.setDouble(5, operation.weight());
                insert.setLong(6, operation.submittedMs());
                insert.setLong(7, operation.finishedMs());
                insert.setString(8, operation.state());
                insert.setInt(9, operation.completed());
                insert.setInt(10, operation.failed());
                insert.setInt(11, operation.aborted());
                insert.setString(12, operation.message());
                insert.addBatch();
            }
            insert.executeBatch();
        }
    }

    /** Moves a tree's mark from {@code expected} to {@code next}; false when it is no longer {@code expected}. */
    private boolean moveMark(String tree, long expected, long next) throws SQLException {
        if (expected < 0) {
            try (PreparedStatement insert = writer.prepareStatement(
                    "INSERT INTO metering_marks (tree, metered_until_ms) VALUES (?, ?) ON CONFLICT (tree) DO NOTHING")) {
                insert.setString(1, tree);
                insert.setLong(2, next);
                return insert.executeUpdate() == 1;
            }
        }
        try (PreparedStatement update = writer.prepareStatement(
                "UPDATE metering_marks SET metered_until_ms = ? WHERE tree = ? AND metered_until_ms = ?")) {
            update.setLong(1, next);
            update.setString(2, tree);
            update.setLong(3, expected);
            return update.executeUpdate() == 1;
        }
    }

    private void addHours(List<HourlyUsage> rows) throws SQLException {
        if (rows.isEmpty()) {
            return;
        }
        try (PreparedStatement hours = writer.prepareStatement(upsert("pool_hours", "hour"));
                PreparedStatement days = writer.prepareStatement(upsert("pool_days", "day"))) {
            for (HourlyUsage row : rows) {
                bind(hours, row, row.hour());
                hours.addBatch();
                bind(days, row, row.hour() - Math.floorMod(row.hour(), DAY));
                days.addBatch();
            }
            hours.executeBatch();
            days.executeBatch();
        }
    }

    private static String upsert(String table, String period) {
        StringBuilder set = new StringBuilder();
        for (String column : RESOURCE_COLUMNS) {
            set.append(set.length() == 0 ? "" : ", ").append(column).append(" = ").append(table).append('.').append(column)
                    .append(" + excluded.").append(column);
        }
        return "INSERT INTO " + table + " (tree, pool, " + period + ", kind, " + String.join(", ", RESOURCE_COLUMNS)
                + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (tree, pool, " + period + ", kind) DO UPDATE SET " + set;
    }

    private static void bind(PreparedStatement statement, HourlyUsage row, long period) throws SQLException {
        statement.setString(1, row.tree());
        statement.setString(2, row.pool());
        statement.setLong(3, period);
        statement.setString(4, row.kind().key());
        for (int r = 0; r < ResourceType.COUNT; r++) {
            statement.setDouble(5 + r, row.seconds()[r]);
        }
    }

    @Override
    public synchronized Map<String, Long> marks() throws AccountingException {
        Map<String, Long> marks = new TreeMap<>();
        try (Statement statement = writer.createStatement();
                ResultSet rows = statement.executeQuery("SELECT tree, metered_until_ms FROM metering_marks")) {
            while (rows.next()) {
                marks.put(rows.getString(1), rows.getLong(2));
            }
            writer.commit();
            return marks;
        } catch (SQLException e) {
            throw new AccountingException("cannot read the metering marks: " + e.getMessage(), e);
        }
    }

    @Override
    public synchronized int expire(long cutoffMs) throws AccountingException {
        try (PreparedStatement jobs = writer.prepareStatement("DELETE FROM job_records WHERE end_ms < ?");
                PreparedStatement operations = writer.prepareStatement("DELETE FROM operation_records WHERE finished_ms < ?")) {
            jobs.setLong(1, cutoffMs);
            operations.setLong(1, cutoffMs);
            int removed = jobs.executeUpdate() + operations.executeUpdate();
            writer.commit();
            return removed;
        } catch (SQLException e) {
            try {
                writer.rollback();
            } catch (SQLException rollback) {
                e.addSuppressed(rollback);
            }
            throw new AccountingException("cannot remove old records: " + e.getMessage(), e);
        }
    }

    // ---------------------------------------------------------------- reading

    @Override
    public List<UsageRow> usage(UsageQuery query) throws AccountingException {
        synchronized (reader) {
            try {
                return query.fromHours() ? usageFromHours(query) : usageFromJobs(query);
            } catch (SQLException e) {
                throw new AccountingException("cannot read usage: " + e.getMessage(), e);
            }
        }
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
        equal(sql, args, "tree", query.tree(), "pool", query.pool());
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
        List<UsageRow> rows = new ArrayList<>();
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
                    rows.add(new UsageRow(null, result.getString(1), named(Map.of(MeterKind.USED.key(), used))));
                }
            }
        }
        return rows;
    }

    private static Map<String, Map<String, Double>> named(Map<String, double[]> kinds) {
        Map<String, Map<String, Double>> out = new LinkedHashMap<>();
        for (MeterKind kind : MeterKind.values()) {
            double[] values = kinds.get(kind.key());
            if (values == null) {
                continue;
            }
            Map<String, Double> resources = new LinkedHashMap<>();
            for (ResourceType r : ResourceType.values()) {
                resources.put(r.key(), values[r.ordinal()]);
            }
            out.put(kind.key(), resources);
        }
        return out;
    }

    @Override
    public List<JobRecord> jobs(JobQuery query) throws AccountingException {
        StringBuilder sql = new StringBuilder("SELECT job_id, operation_id, task, job_index, attempt, user_name, tree, pool, "
                + "pool_path, node, user_slots, cpu, gpu, memory, network, start_ms, end_ms, state, exit_code, reason, "
                + "message, cpu_seconds, gpu_seconds FROM job_records WHERE end_ms >= ? AND end_ms < ?");
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
        synchronized (reader) {
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
            } catch (SQLException e) {
                throw new AccountingException("cannot read job records: " + e.getMessage(), e);
            }
        }
    }

    private static JobRecord job(ResultSet row) throws SQLException {
        Resources resources = new Resources(row.getDouble(11), row.getDouble(12), row.getDouble(13), row.getDouble(14),
                row.getDouble(15));
        int exit = row.getInt(19);
        Integer exitCode = row.wasNull() ? null : exit;
        double cpuSeconds = row.getDouble(22);
        Double cpu = row.wasNull() ? null : cpuSeconds;
        return new JobRecord(row.getString(1), row.getString(2), row.getString(3), row.getInt(4), row.getInt(5),
                row.getString(6), row.getString(7), row.getString(8), row.getString(9), row.getString(10), resources,
                row.getLong(16), row.getLong(17), row.getString(18), exitCode, row.getString(20), row.getString(21), cpu,
                row.getDouble(23));
    }

    @Override
    public void close() {
        for (Connection connection : new Connection[] {writer, reader}) {
            try {
                connection.close();
            } catch (SQLException e) {
                // closing: nothing more to do
            }
        }
    }

    /** Counts rows of a table (tests and benchmarks). */
    public long count(String table) throws AccountingException {
        if (!table.matches("[a-z_]+")) {
            throw new IllegalArgumentException(table);
        }
        synchronized (reader) {
            try (Statement statement = reader.createStatement();
                    ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM " + table)) {
                rows.next();
                return rows.getLong(1);
            } catch (SQLException e) {
                throw new AccountingException(e.getMessage(), e);
            }
        }
    }

}
