package io.grove.accounting;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;

/** The store's suite on PostgreSQL (Debian's, started here), as production runs it. */
class PostgresStoreTest extends AccountingStoreContract {

    static TestPostgres postgres;
    static Path dir;
    JdbcAccountingStore store;

    @BeforeAll
    static void start() throws Exception {
        String missing = TestPostgres.missing();
        Assumptions.assumeTrue(missing == null, missing);
        dir = Files.createTempDirectory("grove-pg-");
        postgres = TestPostgres.start(dir);
    }

    @AfterAll
    static void stop() throws Exception {
        if (postgres != null) {
            postgres.close();
        }
    }

    @BeforeEach
    void open() throws Exception {
        store = JdbcAccountingStore.open(postgres.url(), "grove", null);
    }

    @AfterEach
    void clear() throws Exception {
        store.close();
        try (var connection = java.sql.DriverManager.getConnection(postgres.url(), "grove", "")) {
            connection.createStatement().execute("TRUNCATE job_blocks, ledger_writer, operation_records, pool_hours, pool_days, metering_marks");
        }
    }

    @Override
    JdbcAccountingStore store() {
        return store;
    }

    @Override
    String[] database() {
        return new String[] {postgres.url(), "grove", ""};
    }

    @Override
    String[] fresh() throws Exception {
        String name = "grove_fresh_" + System.nanoTime();
        try (var connection = java.sql.DriverManager.getConnection(postgres.url(), "grove", "")) {
            connection.createStatement().execute("CREATE DATABASE " + name);
        }
        return new String[] {postgres.url().replace("/grove", "/" + name), "grove", ""};
    }

    @Override
    JdbcAccountingStore another() throws Exception {
        return JdbcAccountingStore.open(postgres.url(), "grove", null);
    }
}
