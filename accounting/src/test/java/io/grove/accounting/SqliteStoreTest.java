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

    @org.junit.jupiter.api.Test
    void aDatabaseFileAtAnExplicitUrlIsTheDaemonsAloneToo() throws Exception {
        Path file = dir.resolve("explicit.db");
        try (JdbcAccountingStore explicit = JdbcAccountingStore.open("jdbc:sqlite:" + file, null, null)) {
            org.junit.jupiter.api.Assertions.assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(
                    java.nio.file.Files.getPosixFilePermissions(file)));
        }
    }

    /**
     * The disk under the database fills (a write fails mid-commit), then is given room: the next
     * write succeeds, with no restart.
     */
    @org.junit.jupiter.api.Test
    void aWriteAfterTheDiskFilledAndWasGivenRoomAgainSucceeds() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue("root".equals(System.getProperty("user.name")),
                "a filesystem of its own needs root");
        Path small = java.nio.file.Files.createDirectory(dir.resolve("small"));
        run("/usr/bin/mount", "-t", "tmpfs", "-o", "size=4m", "grove-test", small.toString());
        try (JdbcAccountingStore full = JdbcAccountingStore.sqlite(small.resolve("accounting.db"))) {
            full.write(batch(0, 10));
            Path filler = small.resolve("filler");
            try (var out = java.nio.file.Files.newOutputStream(filler)) {
                byte[] chunk = new byte[64 << 10];
                while (true) {
                    out.write(chunk);
                }
            } catch (java.io.IOException diskFull) {
                // the disk is full
            }
            int refused = 0;
            for (int i = 1; i <= 3; i++) {
                try {
                    full.write(batch(i * 1000, 2000));
                } catch (AccountingException expected) {
                    refused++;
                }
            }
            org.junit.jupiter.api.Assertions.assertTrue(refused > 0, "a full disk refuses a write");
            java.nio.file.Files.delete(filler);
            full.write(batch(10_000, 2000));
            org.junit.jupiter.api.Assertions.assertTrue(full.jobRecords() >= 2010, "written once there is room");
        } finally {
            run("/usr/bin/umount", "-l", small.toString());
        }
    }

    private static io.grove.accounting.AccountingBatch batch(int first, int count) {
        java.util.List<io.grove.core.accounting.JobRecord> jobs = new java.util.ArrayList<>();
        for (int i = first; i < first + count; i++) {
            jobs.add(job("op-" + i + "-1", "alice-with-a-long-name-" + i, "prod", 1, 0, 1000, "completed"));
        }
        return new io.grove.accounting.AccountingBatch(jobs, java.util.List.of(), java.util.List.of(), java.util.Map.of());
    }

    private static void run(String... command) throws Exception {
        org.junit.jupiter.api.Assertions.assertEquals(0, new ProcessBuilder(command).inheritIO().start().waitFor());
    }

    @Override
    JdbcAccountingStore store() {
        return store;
    }

    @Override
    String[] database() {
        return new String[] {"jdbc:sqlite:" + dir.resolve("accounting.db"), null, null};
    }

    @Override
    String[] fresh() {
        return new String[] {"jdbc:sqlite:" + dir.resolve("fresh.db"), null, null};
    }

    @Override
    JdbcAccountingStore another() throws Exception {
        return JdbcAccountingStore.sqlite(dir.resolve("accounting.db"));
    }
}
