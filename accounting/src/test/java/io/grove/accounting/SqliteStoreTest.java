package io.grove.accounting;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** The store's suite on SQLite, the default. */
class SqliteStoreTest extends AccountingStoreContract {

    @TempDir
    Path dir;
    JdbcAccountingStore store;

    @BeforeEach
    void open() throws Exception {
        store = JdbcAccountingStore.sqlite(dir.resolve("accounting.db"));
    }

    @AfterEach
    void close() {
        store.close();
    }

    @org.junit.jupiter.api.Test
    void theDatabaseFileIsTheDaemonsAlone() throws Exception {
        store.write(new io.grove.accounting.AccountingBatch(java.util.List.of(job("op-1-1", "a", "p", 1, 0, 1000, "completed")),
                java.util.List.of(), java.util.List.of(), java.util.Map.of()));
        for (String name : new String[] {"accounting.db", "accounting.db-wal"}) {
            org.junit.jupiter.api.Assertions.assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(
                    java.nio.file.Files.getPosixFilePermissions(dir.resolve(name))), name);
        }
    }

    @Override
    JdbcAccountingStore store() {
        return store;
    }
}
