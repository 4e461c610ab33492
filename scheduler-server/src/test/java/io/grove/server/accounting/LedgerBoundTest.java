package io.grove.server.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.accounting.AccountingBatch;
import io.grove.accounting.AccountingException;
import io.grove.accounting.AccountingStore;
import io.grove.accounting.JobQuery;
import io.grove.accounting.UsageQuery;
import io.grove.accounting.UsageRow;
import io.grove.core.accounting.JobRecord;
import io.grove.core.resource.Resources;
import io.grove.testing.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * A ledger whose database refuses writes holds a bounded number of records, says so, and writes
 * what it holds once the database takes writes again.
 */
class LedgerBoundTest {

    /** A store that refuses every write while {@code down}. */
    static final class Flaky implements AccountingStore {
        final AtomicBoolean down = new AtomicBoolean(true);
        final List<JobRecord> kept = new java.util.concurrent.CopyOnWriteArrayList<>();

        @Override
        public List<String> write(AccountingBatch batch) throws AccountingException {
            if (down.get()) {
                throw new AccountingException("[SQLITE_FULL] database or disk is full", null);
            }
            kept.addAll(batch.jobs());
            return List.of();
        }

        @Override
        public Map<String, Long> marks() {
            return Map.of();
        }

        @Override
        public List<UsageRow> usage(UsageQuery query) {
            return List.of();
        }

        @Override
        public List<JobRecord> jobs(JobQuery query) {
            return List.of();
        }

        @Override
        public int expire(long cutoffMs) {
            return 0;
        }

        @Override
        public String describe() {
            return "flaky";
        }

        @Override
        public void close() {
        }
    }

    static JobRecord job(int i) {
        return new JobRecord("op-" + i + "-1", "op-" + i, "main", 0, 0, "alice", "physical", "prod", "prod", "n1",
                new Resources(1, 1, 0, 0, 0), 0, 1000, "completed", 0, null, null, null, 0);
    }

    @Test
    void aDatabaseThatRefusesWritesIsHeldForBoundedThenWrittenOnceItRecovers() throws Exception {
        Flaky store = new Flaky();
        try (Ledger ledger = new Ledger(store, Duration.ofDays(1), Duration.ofSeconds(10), Duration.ofSeconds(60), rows -> { },
                10)) {
            List<JobRecord> jobs = new ArrayList<>();
            for (int i = 0; i < 15; i++) {
                jobs.add(job(i));
            }
            ledger.replayed(jobs, List.of());
            Await.until("a refused write", () -> ledger.failures() > 0);
            assertEquals(10, ledger.waiting(), "at most 10 held");
            assertEquals(5, ledger.dropped());
            String problem = ledger.problem();
            assertTrue(problem.contains("refuses writes since") && problem.contains("SQLITE_FULL")
                    && problem.contains("10 records wait") && problem.contains("5 were dropped"), problem);
            store.down.set(false);
            // the store holds them before the ledger has counted its write
            Await.until("the held records written and counted", () -> store.kept.size() == 10 && ledger.waiting() == 0
                    && !ledger.problem().contains("refuses"));
            assertTrue(ledger.problem().contains("takes writes again") && ledger.problem().contains("5 were dropped"),
                    ledger.problem());
        }
        Flaky fine = new Flaky();
        fine.down.set(false);
        try (Ledger ledger = new Ledger(fine, Duration.ofDays(1), rows -> { })) {
            assertNull(ledger.problem(), "nothing to say while it writes");
        }
    }
}
