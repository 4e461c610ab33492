package io.grove.bench;

import io.grove.accounting.AccountingBatch;
import io.grove.accounting.JdbcAccountingStore;
import io.grove.accounting.JobQuery;
import io.grove.accounting.UsageQuery;
import io.grove.core.accounting.HourlyUsage;
import io.grove.core.accounting.JobRecord;
import io.grove.core.accounting.MeterKind;
import io.grove.core.resource.Resources;
import io.grove.server.accounting.Ledger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * The accounting database's speed (docs/accounting.md), on SQLite in a fresh directory or on the
 * PostgreSQL a URL names:
 * <ul>
 * <li>{@code ledger N}: N job ends given to the real {@link Ledger} as fast as one thread can, and
 *     how many a second reach the database;</li>
 * <li>{@code usage POOLS DAYS}: a tree of POOLS pools metered every hour for DAYS days (used and fair
 *     share), then {@code grove usage} by pool over the whole period, five times;</li>
 * <li>{@code history N}: N job records over 90 days, then {@code grove jobs history}'s queries:
 *     the latest 100, a user's latest failed, a pool's latest page after a cursor; then
 *     {@code grove usage} by user (every user's, one user's) and by operation, which read the job
 *     records.</li>
 * </ul>
 * <pre>java -cp bench/target/benchmarks.jar io.grove.bench.AccountingBenchmark ledger 200000 [jdbc:postgresql://...]</pre>
 */
public final class AccountingBenchmark {

    private AccountingBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        String what = args.length > 0 ? args[0] : "ledger";
        long n = args.length > 1 ? Long.parseLong(args[1]) : 200_000;
        String url = args.length > (what.equals("usage") ? 3 : 2) ? args[what.equals("usage") ? 3 : 2] : null;
        Path dir = Files.createTempDirectory("grove-accounting-bench");
        try (JdbcAccountingStore store = url == null ? JdbcAccountingStore.sqlite(dir.resolve("accounting.db"))
                : JdbcAccountingStore.open(url, null, null)) {
            System.out.println("database: " + store.describe());
            switch (what) {
                case "ledger" -> ledger(store, (int) n);
                case "usage" -> usage(store, (int) n, Integer.parseInt(args[2]));
                case "history" -> history(store, n);
                default -> throw new IllegalArgumentException("ledger, usage or history, not " + what);
            }
        }
    }

    /**
     * Record {@code i}: of operation {@code i / 100}, whose user (of 1,000) and pool (of 1,000) are
     * drawn from the operation's number, as every record of one operation has one user and pool.
     */
    static JobRecord job(long i, Random random, long endMs) {
        long operation = i / 100;
        Random of = new Random(operation);
        int user = of.nextInt(1000);
        int pool = of.nextInt(1000);
        String state = random.nextInt(20) == 0 ? "failed" : "completed";
        return new JobRecord("op-" + operation + "-" + i, "op-" + operation, "main", (int) (i % 100), 0, "user" + user,
                "physical", "pool" + pool, "team" + (pool % 10) + "/pool" + pool, "node-" + random.nextInt(10_000),
                new Resources(1, 1 + random.nextInt(4), 0, (1L + random.nextInt(8)) << 30, 0), endMs - 60_000 - random.nextInt(3_600_000),
                endMs, state, state.equals("failed") ? 1 : 0, state.equals("failed") ? "failed" : null,
                state.equals("failed") ? "exit code 1; stderr ends with: Traceback ..." : null, 30.0 + random.nextInt(600), 0);
    }

    private static void ledger(JdbcAccountingStore store, int n) throws Exception {
        Ledger ledger = new Ledger(store, Duration.ofDays(90), rows -> { });
        Random random = new Random(1);
        long now = System.currentTimeMillis();
        List<JobRecord> batch = new ArrayList<>();
        long started = System.nanoTime();
        for (int i = 0; i < n; i++) {
            batch.add(job(i, random, now + i));
            if (batch.size() == 1000) {
                ledger.replayed(batch, List.of());
                batch = new ArrayList<>();
            }
        }
        ledger.replayed(batch, List.of());
        double given = (System.nanoTime() - started) / 1e9;
        ledger.barrier().get(10, TimeUnit.MINUTES);
        double seconds = (System.nanoTime() - started) / 1e9;
        System.out.printf("ledger: %,d job ends given in %.2f s, all in the database after %.2f s: %,.0f records/s%n", n,
                given, seconds, n / seconds);
        ledger.close(Duration.ofSeconds(5));
    }

    private static void usage(JdbcAccountingStore store, int pools, int days) throws Exception {
        long start = (System.currentTimeMillis() / 86_400_000L - days) * 86_400L;
        long mark = -1;
        long filled = System.nanoTime();
        if (store.count("pool_hours") > 0) {
            // a database given by URL that an earlier run filled: only the queries
            start = store.marks().get("physical") / 1000 - days * 86_400L;
            days = -days;
        }
        for (int h = 0; h < days * 24; h++) {
            long hour = start + h * 3600L;
            List<HourlyUsage> rows = new ArrayList<>(pools * 2);
            for (int p = 0; p < pools; p++) {
                rows.add(new HourlyUsage("physical", "pool" + p, hour, MeterKind.USED, new double[] {3600, 7200 + p % 7, 0, 1e12, 0}));
                rows.add(new HourlyUsage("physical", "pool" + p, hour, MeterKind.FAIR_SHARE, new double[] {3600, 9000, 0, 2e12, 0}));
            }
            long next = (hour + 3600) * 1000;
            store.write(new AccountingBatch(List.of(), List.of(), rows, Map.of("physical", new long[] {mark, next})));
            mark = next;
        }
        if (days < 0) {
            days = -days;
        } else {
            System.out.printf("usage: %,d pools x %d days metered (%,d hourly rows) in %.1f s%n", pools, days,
                    (long) pools * days * 24 * 2, (System.nanoTime() - filled) / 1e9);
        }
        long[] ms = new long[5];
        for (int i = 0; i < ms.length; i++) {
            long t = System.nanoTime();
            int rows = store.usage(new UsageQuery("pool", start * 1000, (start + days * 86_400L) * 1000, null, null, null)).size();
            ms[i] = (System.nanoTime() - t) / 1_000_000;
            if (rows != pools) {
                throw new IllegalStateException(rows + " rows, not " + pools);
            }
        }
        long t = System.nanoTime();
        long today = System.currentTimeMillis() / 86_400_000L * 86_400_000L;
        store.usage(new UsageQuery("pool", today - (days - 1) * 86_400_000L, System.currentTimeMillis(), null, null, null));
        long recent = (System.nanoTime() - t) / 1_000_000;
        t = System.nanoTime();
        store.usage(new UsageQuery("pool", start * 1000 + 5 * 3_600_000, (start + days * 86_400L) * 1000 - 7 * 3_600_000,
                null, null, null));
        System.out.printf("grove usage by pool over %d days (whole days): %s ms; the last %d days up to now (grove usage "
                + "--since %dd): %d ms; a past period starting and ending mid-day: %d ms%n", days, Arrays.toString(ms), days,
                days, recent, (System.nanoTime() - t) / 1_000_000);
    }

    private static void history(JdbcAccountingStore store, long n) throws Exception {
        Random random = new Random(2);
        long now = System.currentTimeMillis();
        long span = 90L * 86_400_000L;
        long filled = System.nanoTime();
        List<JobRecord> batch = new ArrayList<>();
        for (long i = 0; i < n; i++) {
            batch.add(job(i, random, now - span + i * span / n));
            if (batch.size() == 20_000) {
                store.write(new AccountingBatch(batch, List.of(), List.of(), Map.of()));
                batch.clear();
            }
        }
        store.write(new AccountingBatch(batch, List.of(), List.of(), Map.of()));
        System.out.printf("history: %,d job records written in %.1f s%n", n, (System.nanoTime() - filled) / 1e9);
        String[] names = {"the latest 100", "user42's latest 100 failed", "pool7's page after a cursor",
            "a week of one operation"};
        for (int round = 0; round < 3; round++) {
            StringBuilder line = new StringBuilder();
            for (int q = 0; q < names.length; q++) {
                long t = System.nanoTime();
                List<JobRecord> got = switch (q) {
                    case 0 -> store.jobs(new JobQuery(null, null, null, null, null, 0, Long.MAX_VALUE, null, null, null, null, 100));
                    case 1 -> store.jobs(new JobQuery("user42", null, null, "failed", null, 0, Long.MAX_VALUE, null, null, null,
                            null, 100));
                    case 2 -> store.jobs(new JobQuery(null, "physical", "pool7", null, null, 0, Long.MAX_VALUE, null, null,
                            now - span / 2, "op-zz", 1000));
                    default -> store.jobs(new JobQuery(null, null, null, null, "op-" + (n / 200), now - span, now, null, null,
                            null, null, 1000));
                };
                line.append(String.format("%s: %d ms (%d); ", names[q], (System.nanoTime() - t) / 1_000_000, got.size()));
            }
            System.out.println(line);
        }
        // usage by user and by operation come from the job records
        for (int round = 0; round < 2; round++) {
            long t = System.nanoTime();
            int users = store.usage(new UsageQuery("user", now - span, now, null, null, null)).size();
            long all = (System.nanoTime() - t) / 1_000_000;
            t = System.nanoTime();
            store.usage(new UsageQuery("user", now - span, now, null, null, "user42"));
            long one = (System.nanoTime() - t) / 1_000_000;
            t = System.nanoTime();
            store.usage(new UsageQuery("operation", now - 7 * 86_400_000L, now, null, null, "user42"));
            System.out.printf("grove usage --by user over the 90 days: %d ms (%d users); one user's: %d ms; one user's "
                    + "operations over a week: %d ms%n", all, users, one, (System.nanoTime() - t) / 1_000_000);
        }
    }
}
