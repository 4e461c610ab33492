package io.grove.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.core.accounting.HourlyUsage;
import io.grove.core.accounting.JobRecord;
import io.grove.core.accounting.MeterKind;
import io.grove.core.accounting.OperationRecord;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.resource.Resources;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The same suite on every database the store runs on (SQLite, PostgreSQL). */
abstract class AccountingStoreContract {

    static final long H = 3_600_000;
    static final long DAY = 24 * H;
    /** 2026-11-01T00:00Z. */
    static final long NOV1 = 1_793_491_200_000L;

    abstract JdbcAccountingStore store();

    /** Another store on the same database: the scheduler that takes over, or the one restarted. */
    abstract JdbcAccountingStore another() throws Exception;

    /** The JDBC URL of the store's database, its user and password. */
    abstract String[] database();

    /** The JDBC URL of a new empty database, its user and password. */
    abstract String[] fresh() throws Exception;

    static JobRecord job(String id, String user, String pool, double cpu, long start, long end, String state) {
        return new JobRecord(id, "op-" + user, "main", 0, 0, user, "physical", pool, pool.equals("etl_x") ? "etl/etl_x" : pool, "n1",
                new Resources(1, cpu, 0, 1L << 30, 0), start, end, state, state.equals("failed") ? 3 : 0,
                state.equals("failed") ? "failed" : null, null, cpu * (end - start) / 1000.0, 0);
    }

    static HourlyUsage hour(String pool, long hourMs, MeterKind kind, double cpuSeconds) {
        return new HourlyUsage("physical", pool, hourMs / 1000, kind, new double[] {0, cpuSeconds, 0, 0, 0});
    }

    @Test
    void aJobWrittenTwiceIsKeptOnceAndReadersSeeTheirOwnAndTheirPools() throws Exception {
        JobRecord a = job("op-1-1", "alice", "etl", 2, NOV1, NOV1 + H, "completed");
        JobRecord b = job("op-2-1", "bob", "research", 1, NOV1, NOV1 + 2 * H, "failed");
        JobRecord c = job("op-3-1", "carol", "etl_x", 4, NOV1 + H, NOV1 + 3 * H, "completed");
        JobRecord d = job("op-4-1", "dave", "etlx", 1, NOV1, NOV1 + H / 2, "completed");
        store().write(new AccountingBatch(List.of(a, b), List.of(), List.of(), Map.of()));
        store().write(new AccountingBatch(List.of(a, b, c, d), List.of(new OperationRecord("op-1", "alice", "t",
                "physical:etl", 1, NOV1, NOV1 + H, "completed", 1, 0, 0, null)), List.of(), Map.of()));
        assertEquals(4, store().jobRecords());
        List<JobRecord> all = store().jobs(new JobQuery(null, null, null, null, null, 0, Long.MAX_VALUE, null, null, null,
                null, 100));
        assertEquals(List.of("op-3-1", "op-2-1", "op-1-1", "op-4-1"), all.stream().map(JobRecord::jobId).toList(),
                "latest first");
        assertEquals(b, all.get(1), "every field comes back");
        List<JobRecord> failed = store().jobs(new JobQuery(null, null, null, "failed", null, 0, Long.MAX_VALUE, null, null,
                null, null, 100));
        assertEquals(List.of("op-2-1"), failed.stream().map(JobRecord::jobId).toList());
        // alice sees her own and, as the admin of etl, carol's in etl/etl_x below it; not bob's, nor dave's in etlx
        List<JobRecord> seen = store().jobs(new JobQuery(null, null, null, null, null, 0, Long.MAX_VALUE, "alice",
                List.of("physical:etl"), null, null, 100));
        assertEquals(List.of("op-3-1", "op-1-1"), seen.stream().map(JobRecord::jobId).toList());
        List<JobRecord> own = store().jobs(new JobQuery(null, null, null, null, null, 0, Long.MAX_VALUE, "bob", List.of(),
                null, null, 100));
        assertEquals(List.of("op-2-1"), own.stream().map(JobRecord::jobId).toList());
        // a page, then the next from its cursor
        List<JobRecord> first = store().jobs(new JobQuery(null, null, null, null, null, 0, Long.MAX_VALUE, null, null, null,
                null, 2));
        List<JobRecord> next = store().jobs(new JobQuery(null, null, null, null, null, 0, Long.MAX_VALUE, null, null,
                first.get(1).endMs(), first.get(1).jobId(), 2));
        assertEquals(List.of("op-1-1", "op-4-1"), next.stream().map(JobRecord::jobId).toList());
    }

    @Test
    void workLostToPreemptionIsKeptWithTheJobAndSummedByPoolAndByUser() throws Exception {
        JobRecord done = job("op-5-1", "erin", "etl", 2, NOV1, NOV1 + H, "completed");
        JobRecord taken = new JobRecord("op-5-2", "op-erin", "main", 1, 0, "erin", "physical", "etl", "etl", "n1",
                new Resources(1, 4, 1, 1L << 30, 0), NOV1, NOV1 + H / 2, "aborted", null, "preempted", "preempted for x — задание ✓",
                null, 1800, 90.0);
        store().write(new AccountingBatch(List.of(done, taken), List.of(), List.of(), Map.of()));
        List<JobRecord> back = store().jobs(new JobQuery(null, null, null, null, null, 0, Long.MAX_VALUE, null, null, null,
                null, 10));
        assertEquals(taken, back.stream().filter(r -> r.jobId().equals("op-5-2")).findFirst().orElseThrow(),
                "the lost seconds come back with the record");
        assertEquals(null, back.stream().filter(r -> r.jobId().equals("op-5-1")).findFirst().orElseThrow().lostWorkSeconds());
        UsageRow pool = store().usage(new UsageQuery("pool", NOV1, NOV1 + DAY, null, null, null)).stream()
                .filter(r -> r.key().equals("etl")).findFirst().orElseThrow();
        assertEquals(360.0, pool.seconds().get("preempted").get("cpu"), 1e-9, "4 cpu for 90 s lost");
        assertEquals(90.0, pool.seconds().get("preempted").get("gpu"), 1e-9);
        UsageRow user = store().usage(new UsageQuery("user", NOV1, NOV1 + DAY, null, null, null)).get(0);
        assertEquals("erin", user.key());
        assertEquals(360.0, user.seconds().get("preempted").get("cpu"), 1e-9);
        assertEquals(2 * 3600.0 + 4 * 1800.0, user.seconds().get("used").get("cpu"), 1e-9);
        assertTrue(store().usage(new UsageQuery("user", NOV1, NOV1 + DAY, null, null, "bob")).isEmpty(),
                "another user's lost work is not in a report of one's own");
        UsageRow hour = store().usage(new UsageQuery("pool", NOV1, NOV1 + DAY, null, null, null, "hour")).stream()
                .filter(r -> r.key().equals("etl")).findFirst().orElseThrow();
        assertEquals(NOV1 / 1000, hour.period(), "counted in the hour it ended");
        assertEquals(360.0, hour.seconds().get("preempted").get("cpu"), 1e-9);
    }

    @Test
    void aTransactionOfManyRecordsKeepsEachOnceAcrossItsBlocks() throws Exception {
        int count = 2 * JobBlocks.MAX_RECORDS + 88;
        List<JobRecord> jobs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            jobs.add(job("op-9-" + i, "erin", "etl", 1, NOV1, NOV1 + i, "completed"));
        }
        store().write(new AccountingBatch(jobs, List.of(), List.of(), Map.of()));
        store().write(new AccountingBatch(jobs.subList(100, count), List.of(), List.of(), Map.of()));
        assertEquals(count, store().jobRecords());
        List<JobRecord> last = store().jobs(new JobQuery(null, null, null, null, null, 0, Long.MAX_VALUE, null, null,
                null, null, 1));
        assertEquals(jobs.get(count - 1), last.get(0), "the last of the last run, every field");
    }

    @Test
    void hoursAddUpDaysFromTheirHoursAndAMovedMarkAddsNothing() throws Exception {
        // etl: 3 cpu used for the last hour of Nov 1 and all of Nov 2, and 1 cpu in the first hour of Nov 3
        List<HourlyUsage> hours = new ArrayList<>();
        hours.add(hour("etl", NOV1 + 23 * H, MeterKind.USED, 3 * 3600));
        for (int h = 0; h < 24; h++) {
            hours.add(hour("etl", NOV1 + DAY + h * H, MeterKind.USED, 3 * 3600));
            hours.add(hour("etl", NOV1 + DAY + h * H, MeterKind.STRONG_GUARANTEE, 10 * 3600));
        }
        hours.add(hour("etl", NOV1 + 2 * DAY, MeterKind.USED, 3600));
        // a tree's usage is its root's row
        hours.add(hour(PoolTreeConfig.ROOT, NOV1 + DAY + 22 * H, MeterKind.USED, 3 * 3600));
        hours.add(hour(PoolTreeConfig.ROOT, NOV1 + DAY + 23 * H, MeterKind.USED, 3 * 3600));
        hours.add(hour(PoolTreeConfig.ROOT, NOV1 + 2 * DAY, MeterKind.USED, 3600));
        assertEquals(List.of(), store().write(new AccountingBatch(List.of(), List.of(), hours,
                Map.of("physical", new long[] {-1, NOV1 + 2 * DAY + H}))));
        assertEquals(Map.of("physical", NOV1 + 2 * DAY + H), store().marks());
        List<UsageRow> usage = store().usage(new UsageQuery("pool", NOV1, NOV1 + 3 * DAY, null, "etl", null));
        assertEquals(1, usage.size(), usage.toString());
        assertEquals((3 * 25 + 1) * 3600.0, usage.get(0).seconds().get("used").get("cpu"), 1e-6);
        assertEquals(240 * 3600.0, usage.get(0).seconds().get("strong_guarantee").get("cpu"), 1e-6);
        // part of a day: from its hours
        List<UsageRow> part = store().usage(new UsageQuery("tree", NOV1 + DAY + 22 * H, NOV1 + 2 * DAY + H, null, null, null));
        assertEquals((2 * 3 + 1) * 3600.0, part.get(0).seconds().get("used").get("cpu"), 1e-6, "22:00 and 23:00 at 3 cpu, 00:00 at 1");
        // per day: Nov 1 has its last hour, Nov 2 its day, Nov 3 its first hour
        List<UsageRow> days = store().usage(new UsageQuery("pool", NOV1, NOV1 + 3 * DAY, null, "etl", null, "day"));
        assertEquals(List.of(NOV1 / 1000, (NOV1 + DAY) / 1000, (NOV1 + 2 * DAY) / 1000), days.stream().map(UsageRow::period).toList());
        assertEquals(List.of(3 * 3600.0, 72 * 3600.0, 3600.0), days.stream().map(r -> r.seconds().get("used").get("cpu")).toList());
        List<UsageRow> perHour = store().usage(new UsageQuery("pool", NOV1 + DAY, NOV1 + DAY + 3 * H, null, "etl", null, "hour"));
        assertEquals(3, perHour.size(), "three hours: " + perHour);
        assertEquals(10 * 3600.0, perHour.get(2).seconds().get("strong_guarantee").get("cpu"), 1e-6);
        // a writer whose mark is behind the database's adds nothing
        assertEquals(List.of("physical"), store().write(new AccountingBatch(List.of(), List.of(),
                List.of(hour("etl", NOV1, MeterKind.USED, 1e9)), Map.of("physical", new long[] {NOV1, NOV1 + H}))));
        assertEquals((3 * 25 + 1) * 3600.0, store().usage(new UsageQuery("pool", NOV1, NOV1 + 3 * DAY, null, "etl", null))
                .get(0).seconds().get("used").get("cpu"), 1e-6);
    }

    @Test
    void usersUsageComesFromTheirJobsClippedToThePeriodAndOldRecordsExpire() throws Exception {
        store().write(new AccountingBatch(List.of(
                job("op-1-1", "alice", "etl", 2, NOV1 - H, NOV1 + H, "completed"),
                job("op-1-2", "alice", "etl", 1, NOV1 + 2 * H, NOV1 + 3 * H, "completed"),
                job("op-2-1", "bob", "etl", 4, NOV1, NOV1 + H, "completed")), List.of(),
                List.of(hour("etl", NOV1 - 10 * DAY, MeterKind.USED, 5)), Map.of("physical", new long[] {-1, NOV1})));
        List<UsageRow> byUser = store().usage(new UsageQuery("user", NOV1, NOV1 + DAY, null, null, null));
        assertEquals("alice", byUser.get(0).key());
        assertEquals(2 * 3600.0 + 3600.0, byUser.get(0).seconds().get("used").get("cpu"), 1e-6, "the hour before is not counted");
        assertEquals(4 * 3600.0, byUser.get(1).seconds().get("used").get("cpu"), 1e-6);
        assertEquals(2, store().expire(NOV1 + H + 1), "the jobs that ended by then");
        assertEquals(1, store().jobRecords());
        assertEquals(List.of("op-1-2"), store().jobs(new JobQuery(null, null, null, null, null, 0, Long.MAX_VALUE, null, null,
                null, null, 10)).stream().map(JobRecord::jobId).toList(), "alice's later job stays, its block written again");
        assertEquals(1 + 2 * 3, store().count("pool_hours"), "hours are kept: the one written, and the jobs' in etl and "
                + "the root in three hours");
    }

    /**
     * What pools used comes from their jobs' records, exactly: a job's interval split at hours,
     * added to its pool, the pools above it and the root (a tree's row), once however often the
     * record is written.
     */
    @Test
    void poolsUsageComesFromTheirJobsExactlyOnceSplitAtHours() throws Exception {
        // carol's 4 cpus in etl/etl_x from 00:50 to 01:10; bob's 1 cpu in research for 1.5 s
        JobRecord carol = job("op-3-1", "carol", "etl_x", 4, NOV1 + 50 * H / 60, NOV1 + 70 * H / 60, "completed");
        JobRecord bob = job("op-2-1", "bob", "research", 1, NOV1 + 5_000, NOV1 + 6_500, "completed");
        JobRecord unknown = new JobRecord("op-9-1", "op-9", "main", 0, 0, "dave", null, null, null, "n1",
                new Resources(1, 8, 0, 0, 0), NOV1, NOV1 + H, "aborted", null, null, null, null, 0);
        store().write(new AccountingBatch(List.of(carol, bob, unknown), List.of(), List.of(), Map.of()));
        store().write(new AccountingBatch(List.of(carol, bob), List.of(), List.of(), Map.of()));
        Map<String, Double> byPool = new TreeMap<>();
        for (UsageRow row : store().usage(new UsageQuery("pool", NOV1, NOV1 + DAY, null, null, null))) {
            byPool.put(row.key(), row.seconds().get("used").get("cpu"));
        }
        assertEquals(Map.of("etl_x", 4800.0, "etl", 4800.0, "research", 1.5, PoolTreeConfig.ROOT, 4801.5), byPool,
                "once, though written twice; a record without its pool counts in no pool");
        List<UsageRow> perHour = store().usage(new UsageQuery("pool", NOV1, NOV1 + DAY, null, "etl_x", null, "hour"));
        assertEquals(List.of(2400.0, 2400.0), perHour.stream().map(r -> r.seconds().get("used").get("cpu")).toList(),
                "split exactly at 01:00");
        List<UsageRow> tree = store().usage(new UsageQuery("tree", NOV1, NOV1 + DAY, null, null, null));
        assertEquals(4801.5, tree.get(0).seconds().get("used").get("cpu"), 1e-9, "the tree's is its root's, not the sum of its pools'");
        assertEquals(1.5 * (1L << 30), byUser("bob").seconds().get("used").get("memory"), 1e-3, "memory in byte-seconds");
    }

    private UsageRow byUser(String user) throws Exception {
        return store().usage(new UsageQuery("user", NOV1, NOV1 + DAY, null, null, user)).get(0);
    }

    /**
     * A scheduler restarted (or taking over) writes again what the last one wrote: a job that ran
     * for an hour before it, among others. Each is kept once and its hours added once; the last
     * scheduler, deposed, can write nothing more.
     */
    @Test
    void aRecordWrittenAgainByTheNextWriterIsKeptOnceAndTheDeposedOneWritesNothing() throws Exception {
        JobRecord longOne = job("op-carol-1", "carol", "etl", 4, NOV1, NOV1 + H, "completed");
        JobRecord shortOne = job("op-carol-2", "carol", "etl", 1, NOV1 + H - 10_000, NOV1 + H, "completed");
        store().write(new AccountingBatch(List.of(longOne, shortOne), List.of(), List.of(), Map.of()));
        try (JdbcAccountingStore next = another()) {
            JobRecord later = job("op-carol-3", "carol", "etl", 1, NOV1 + H, NOV1 + 2 * H, "completed");
            next.write(new AccountingBatch(List.of(shortOne, later, longOne), List.of(), List.of(), Map.of()));
            next.write(new AccountingBatch(List.of(later), List.of(), List.of(), Map.of()));
            assertEquals(3, next.jobRecords());
            UsageRow etl = next.usage(new UsageQuery("pool", NOV1, NOV1 + DAY, null, null, null)).stream()
                    .filter(r -> r.key().equals("etl")).findFirst().orElseThrow();
            assertEquals(4 * 3600.0 + 10.0 + 3600.0, etl.seconds().get("used").get("cpu"), 1e-6, "each job's hours once");
            AccountingException deposed = org.junit.jupiter.api.Assertions.assertThrows(AccountingException.class,
                    () -> store().write(new AccountingBatch(List.of(job("op-carol-4", "carol", "etl", 1, NOV1, NOV1 + 1, "completed")),
                            List.of(), List.of(), Map.of())));
            assertTrue(deposed.getMessage().contains("another scheduler writes the ledger now"), deposed.getMessage());
            assertEquals(3, next.jobRecords(), "the deposed one's record is not kept");
        }
    }

    /**
     * Records of several operations written in many transactions, their ends interleaved across
     * blocks: the history comes back in order, page after page from each cursor, and filtered.
     */
    @Test
    void theHistoryReadsBlocksInOrderPageAfterPage() throws Exception {
        java.util.SplittableRandom random = new java.util.SplittableRandom(5);
        List<JobRecord> all = new ArrayList<>();
        for (int batch = 0; batch < 12; batch++) {
            List<JobRecord> jobs = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                String user = List.of("alice", "bob", "carol").get(random.nextInt(3));
                long end = NOV1 + batch * 60_000L + random.nextInt(300_000);
                JobRecord job = job("op-" + user + "-" + all.size(), user, "etl", 1, end - 1000, end,
                        random.nextInt(5) == 0 ? "failed" : "completed");
                jobs.add(job);
                all.add(job);
            }
            store().write(new AccountingBatch(jobs, List.of(), List.of(), Map.of()));
        }
        java.util.Comparator<JobRecord> latestFirst = java.util.Comparator.comparingLong(JobRecord::endMs)
                .thenComparing(JobRecord::jobId).reversed();
        List<JobRecord> expected = all.stream().sorted(latestFirst).toList();
        List<JobRecord> paged = new ArrayList<>();
        List<JobRecord> page = store().jobs(new JobQuery(null, null, null, null, null, 0, Long.MAX_VALUE, null, null, null,
                null, 7));
        while (!page.isEmpty()) {
            paged.addAll(page);
            JobRecord last = page.get(page.size() - 1);
            page = store().jobs(new JobQuery(null, null, null, null, null, 0, Long.MAX_VALUE, null, null, last.endMs(),
                    last.jobId(), 7));
        }
        assertEquals(expected, paged);
        assertEquals(expected.stream().filter(j -> j.user().equals("bob") && j.state().equals("failed")).limit(5).toList(),
                store().jobs(new JobQuery("bob", null, null, "failed", null, 0, Long.MAX_VALUE, null, null, null, null, 5)));
        long from = NOV1 + 200_000;
        long to = NOV1 + 500_000;
        assertEquals(expected.stream().filter(j -> j.endMs() >= from && j.endMs() < to).toList(),
                store().jobs(new JobQuery(null, null, null, null, null, from, to, null, null, null, null, 1000)), "a period");
    }

    /**
     * A database of the version before blocks, one row a record: the store opens it, moves the rows
     * into blocks and drops the old table; every record reads back the same, and one written again
     * is kept once.
     */
    @Test
    void recordsOfTheVersionBeforeBlocksAreMovedIntoBlocks() throws Exception {
        String[] db = fresh();
        org.flywaydb.core.Flyway.configure().dataSource(db[0], db[1], db[2]).locations("classpath:db/migration")
                .placeholders(Map.of("block_id", "BIGINT")).target("2").load().migrate();
        List<JobRecord> old = new ArrayList<>();
        for (int i = 0; i < 2 * JobBlocks.MAX_RECORDS + 5; i++) {
            String user = i % 3 == 0 ? "alice" : "bob";
            old.add(new JobRecord("op-" + user + "-" + i, "op-" + user, "main", i, 0, user, "physical", "etl", "etl",
                    i % 7 == 0 ? null : "n" + i % 5, new Resources(1, 2, 0, 1L << 30, 0), NOV1 + i * 1000L,
                    NOV1 + i * 1000L + (i % 3 == 0 ? 2 * H : 500), i % 4 == 0 ? "failed" : "completed", i % 4 == 0 ? 1 : null,
                    i % 4 == 0 ? "failed" : null, i % 4 == 0 ? "it said \u00e9\n" + i : null, i % 2 == 0 ? null : 1.5 * i, 0,
                    i % 11 == 0 ? 30.0 : null));
        }
        try (java.sql.Connection connection = java.sql.DriverManager.getConnection(db[0], db[1], db[2]);
                java.sql.PreparedStatement insert = connection.prepareStatement("INSERT INTO job_records (job_id, "
                        + "operation_id, task, job_index, attempt, user_name, tree, pool, pool_path, node, user_slots, cpu, "
                        + "gpu, memory, network, start_ms, end_ms, state, exit_code, reason, message, cpu_seconds, "
                        + "gpu_seconds, lost_work_seconds) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
                        + "?, ?, ?, ?, ?)")) {
            for (JobRecord r : old) {
                Object[] values = {r.jobId(), r.operationId(), r.task(), r.index(), r.attempt(), r.user(), r.tree(),
                    r.pool(), r.poolPath(), r.node(), 1.0, 2.0, 0.0, (double) (1L << 30), 0.0, r.startMs(), r.endMs(),
                    r.state(), r.exitCode(), r.reason(), r.message(), r.cpuSeconds(), r.gpuSeconds(), r.lostWorkSeconds()};
                for (int v = 0; v < values.length; v++) {
                    insert.setObject(v + 1, values[v]);
                }
                insert.executeUpdate();
            }
        }
        try (JdbcAccountingStore moved = JdbcAccountingStore.open(db[0], db[1], db[2])) {
            assertEquals(old.size(), moved.jobRecords());
            java.util.Comparator<JobRecord> latestFirst = java.util.Comparator.comparingLong(JobRecord::endMs)
                    .thenComparing(JobRecord::jobId).reversed();
            assertEquals(old.stream().sorted(latestFirst).toList(), moved.jobs(new JobQuery(null, null, null, null, null, 0,
                    Long.MAX_VALUE, null, null, null, null, 10_000)), "every record, every field");
            moved.write(new AccountingBatch(List.of(old.get(3), old.get(2000)), List.of(), List.of(), Map.of()));
            assertEquals(old.size(), moved.jobRecords(), "a moved record written again is kept once");
            try (java.sql.Connection connection = java.sql.DriverManager.getConnection(db[0], db[1], db[2]);
                    java.sql.ResultSet tables = connection.getMetaData().getTables(null, null, "job_records", null)) {
                assertTrue(!tables.next(), "the old table is gone");
            }
        }
    }

    /** A block the database holds damaged is an error that names it, not a wrong answer. */
    @Test
    void aDamagedBlockIsAnErrorThatNamesIt() throws Exception {
        store().write(new AccountingBatch(List.of(job("op-erin-1", "erin", "etl", 1, NOV1, NOV1 + H, "completed")), List.of(),
                List.of(), Map.of()));
        String[] db = database();
        try (java.sql.Connection connection = java.sql.DriverManager.getConnection(db[0], db[1], db[2]);
                java.sql.PreparedStatement damage = connection.prepareStatement("UPDATE job_blocks SET data = ?")) {
            damage.setBytes(1, new byte[] {1, 0, 0, 0, 5, 1});
            damage.executeUpdate();
        }
        AccountingException error = org.junit.jupiter.api.Assertions.assertThrows(AccountingException.class,
                () -> store().jobs(new JobQuery(null, null, null, null, null, 0, Long.MAX_VALUE, null, null, null, null, 10)));
        assertTrue(error.getMessage().matches("cannot read job records: job block \\d+ is cut short or damaged"),
                error.getMessage());
    }
}
