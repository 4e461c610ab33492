package io.grove.accounting;

import io.grove.core.accounting.HourlyUsage;
import io.grove.core.accounting.JobHours;
import io.grove.core.accounting.JobRecord;
import io.grove.core.accounting.OperationRecord;
import io.grove.core.resource.ResourceType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
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

    static final String[] RESOURCE_COLUMNS = {"user_slots", "cpu", "gpu", "memory", "network"};
    static final long DAY = 86_400;

    private final String url;
    private final Properties properties;
    private final boolean postgres;
    /** The writing connection: opened again after a failed write, whose transaction state the driver may have lost. */
    private Connection writer;
    private final Connection reader;
    private final AccountingReads reads;
    /** The job records' blocks, on the writing connection. */
    private final JobBlockWrites blocks = new JobBlockWrites(new SeenJobs());

    private JdbcAccountingStore(String url, Properties properties) throws AccountingException {
        this.url = url;
        this.properties = properties;
        this.postgres = url.startsWith("jdbc:postgresql:");
        try {
            Flyway.configure().dataSource(url, properties.getProperty("user"), properties.getProperty("password"))
                    .locations("classpath:db/migration").javaMigrations(new JobBlocksMigration())
                    .placeholders(Map.of("block_id", postgres ? "BIGSERIAL PRIMARY KEY" : "INTEGER PRIMARY KEY"))
                    .load().migrate();
            this.writer = connect(url, properties);
            this.reader = connect(url, properties);
            this.reads = new AccountingReads(reader);
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
        createPrivate(file);
        return new JdbcAccountingStore("jdbc:sqlite:" + file.toAbsolutePath(), new Properties());
    }

    /** Makes a new SQLite file 0600 (its journals take its mode); an existing one is left as it is. */
    private static void createPrivate(Path file) throws AccountingException {
        try {
            if (!Files.exists(file)) {
                Files.createFile(file, PosixFilePermissions.asFileAttribute(
                        PosixFilePermissions.fromString("rw-------")));
            }
        } catch (IOException e) {
            throw new AccountingException("cannot make the accounting database " + file + ": " + e.getMessage(), e);
        }
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
        if (url.startsWith("jdbc:sqlite:")) {
            String path = url.substring("jdbc:sqlite:".length());
            int query = path.indexOf('?');
            path = query < 0 ? path : path.substring(0, query);
            if (!path.isEmpty() && !path.equals(":memory:") && !path.startsWith("file:")) {
                createPrivate(Path.of(path));
            }
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
        List<JobRecord> inserted = new ArrayList<>();
        try {
            blocks.fence(writer);
            // what pools used comes from the jobs' intervals, added once with each record kept for the first time
            JobHours used = new JobHours();
            blocks.insert(writer, batch.jobs(), inserted).forEach(used::add);
            addHours(used.rows());
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
            blocks.committed(inserted);
            return moved;
        } catch (SQLException | RuntimeException e) {
            blocks.failed();
            recover(e);
            throw new AccountingException("the accounting database refused a write: " + e.getMessage(), e);
        }
    }

    /**
     * After a failed write: rolls back, then opens the writing connection again. A driver can lose
     * track of its transaction when the database fails mid-commit (SQLite with a full disk answers
     * "cannot commit - no transaction is active" to every later commit); a new connection starts
     * clean, so the next try succeeds once the database can be written again.
     */
    private void recover(Exception cause) {
        try {
            writer.rollback();
        } catch (SQLException rollback) {
            cause.addSuppressed(rollback);
        }
        try {
            writer.close();
        } catch (SQLException closing) {
            // replaced below
        }
        try {
            Connection fresh = connect(url, properties);
            fresh.setAutoCommit(false);
            writer = fresh;
        } catch (SQLException reconnect) {
            cause.addSuppressed(reconnect);
            // the closed connection stays: the next write fails at once and tries again
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
            recover(e);
            throw new AccountingException("cannot read the metering marks: " + e.getMessage(), e);
        }
    }

    @Override
    public synchronized int expire(long cutoffMs) throws AccountingException {
        try (PreparedStatement operations = writer.prepareStatement("DELETE FROM operation_records WHERE finished_ms < ?")) {
            int removed = blocks.expire(writer, cutoffMs);
            operations.setLong(1, cutoffMs);
            removed += operations.executeUpdate();
            writer.commit();
            return removed;
        } catch (SQLException | RuntimeException e) {
            blocks.failed();
            recover(e);
            throw new AccountingException("cannot remove old records: " + e.getMessage(), e);
        }
    }

    // ---------------------------------------------------------------- reading

    @Override
    public List<UsageRow> usage(UsageQuery query) throws AccountingException {
        synchronized (reads) {
            try {
                return reads.usage(query);
            } catch (SQLException | IllegalStateException e) {
                throw new AccountingException("cannot read usage: " + e.getMessage(), e);
            }
        }
    }

    @Override
    public List<JobRecord> jobs(JobQuery query) throws AccountingException {
        synchronized (reads) {
            try {
                return reads.jobs(query);
            } catch (SQLException | IllegalStateException e) {
                throw new AccountingException("cannot read job records: " + e.getMessage(), e);
            }
        }
    }

    /** How many job records the ledger holds (tests and benchmarks). */
    public long jobRecords() throws AccountingException {
        synchronized (reads) {
            try {
                return reads.jobRecords();
            } catch (SQLException e) {
                throw new AccountingException(e.getMessage(), e);
            }
        }
    }

    /** Counts rows of a table (tests and benchmarks). */
    public long count(String table) throws AccountingException {
        synchronized (reads) {
            try {
                return reads.count(table);
            } catch (SQLException e) {
                throw new AccountingException(e.getMessage(), e);
            }
        }
    }

    @Override
    public synchronized void close() {
        for (Connection connection : new Connection[] {writer, reader}) {
            try {
                connection.close();
            } catch (SQLException e) {
                // closing: nothing more to do
            }
        }
    }
}
