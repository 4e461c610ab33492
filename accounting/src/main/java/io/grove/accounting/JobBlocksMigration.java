package io.grove.accounting;

import io.grove.core.accounting.JobRecord;
import io.grove.core.resource.Resources;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.flywaydb.core.api.MigrationVersion;
import org.flywaydb.core.api.migration.JavaMigration;
import org.flywaydb.core.api.migration.Context;

/**
 * Migration 4: moves the rows of {@code job_records} (one per record, versions before blocks) into
 * {@code job_blocks}, a block per run of up to {@link JobBlocks#MAX_RECORDS} records of one
 * operation in one pool that ended within {@link #SPAN_MS} of the run's first, then drops the table.
 * It runs in Flyway's transaction: on a failure nothing moved and the old table stays.
 */
final class JobBlocksMigration implements JavaMigration {

    /** The longest span of ends a moved block covers: a read of a period decodes few records outside it. */
    static final long SPAN_MS = 3_600_000;

    @Override
    public MigrationVersion getVersion() {
        return MigrationVersion.fromVersion("4");
    }

    @Override
    public String getDescription() {
        return "job records into blocks";
    }

    @Override
    public Integer getChecksum() {
        return 4;
    }

    @Override
    public boolean canExecuteInTransaction() {
        return true;
    }

    @Override
    public void migrate(Context context) throws Exception {
        Connection connection = context.getConnection();
        try (Statement select = connection.createStatement();
                PreparedStatement insert = connection.prepareStatement(JobBlockWrites.INSERT)) {
            select.setFetchSize(1_000);
            try (ResultSet rows = select.executeQuery("SELECT job_id, operation_id, task, job_index, attempt, user_name, "
                    + "tree, pool, pool_path, node, user_slots, cpu, gpu, memory, network, start_ms, end_ms, state, "
                    + "exit_code, reason, message, cpu_seconds, gpu_seconds, lost_work_seconds FROM job_records "
                    + "ORDER BY operation_id, user_name, tree, pool, pool_path, end_ms, job_id")) {
                JobBlocks.Key key = null;
                List<JobRecord> run = new ArrayList<>();
                int pending = 0;
                while (rows.next()) {
                    JobRecord record = record(rows);
                    JobBlocks.Key of = JobBlocks.Key.of(record);
                    if (!run.isEmpty() && (!Objects.equals(of, key) || run.size() == JobBlocks.MAX_RECORDS
                            || record.endMs() - run.get(0).endMs() > SPAN_MS)) {
                        JobBlockWrites.bind(insert, key, run);
                        insert.addBatch();
                        run = new ArrayList<>();
                        if (++pending == 100) {
                            insert.executeBatch();
                            pending = 0;
                        }
                    }
                    key = of;
                    run.add(record);
                }
                if (!run.isEmpty()) {
                    JobBlockWrites.bind(insert, key, run);
                    insert.addBatch();
                }
                insert.executeBatch();
            }
            select.execute("DROP TABLE job_records");
        }
    }

    /** A row of {@code job_records} as a record. */
    static JobRecord record(ResultSet row) throws SQLException {
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
}
