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

    @Override
    JdbcAccountingStore store() {
        return store;
    }
}
