package io.grove.server.accounting;

import io.grove.accounting.AccountingBatch;
import io.grove.accounting.AccountingException;
import io.grove.accounting.AccountingStore;
import io.grove.core.accounting.HourlyUsage;
import io.grove.core.accounting.JobRecord;
import io.grove.core.accounting.Metering;
import io.grove.core.accounting.OperationRecord;
import io.grove.core.accounting.PoolSamples;
import io.grove.core.cluster.ClusterView;
import io.grove.core.operation.Job;
import io.grove.core.operation.Operation;
import io.grove.core.operation.RegistryListener;
import io.grove.http.DaemonThreads;
import io.grove.server.state.JournalEvent;
import io.grove.server.state.Revival;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes what accounting keeps off the scheduler's thread: a job's or an operation's record when it
 * ends (with it, what its pools used: {@code JobHours}), and every {@link #METER_EVERY} (by default)
 * the pools' metering, are queued there in order; one thread
 * of the ledger's writes them in batches, each in one transaction, retrying a batch the database
 * refused until it takes it (nothing is dropped, order is kept). A job record is kept once however
 * often it is written, so what a crash leaves unwritten is written again at revival
 * ({@link #revived}): the ends the journal replays, and what a snapshot kept of the records not yet
 * written when it dropped their events ({@link #keepUnwritten}).
 */
public final class Ledger implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Ledger.class);

    /** How often the pools are sampled for metering. */
    public static final Duration METER_EVERY = Duration.ofSeconds(10);
    /**
     * How often metering's rows go to the database: at every sample, so a crash leaves unwritten at
     * most what the writer had not taken yet (the next start resumes from the mark).
     */
    public static final Duration WRITE_METERING_EVERY = METER_EVERY;
    /** The most items one transaction takes. */
    static final int BATCH = 5_000;
    /** How long the writer waits for a batch to fill before it writes what came (a barrier does not wait). */
    static final Duration WRITE_EVERY = Duration.ofMillis(100);
    /** How often old records are removed. */
    static final Duration EXPIRE_EVERY = Duration.ofHours(1);
    /**
     * The most job and operation records held for a database that does not take them (some 100 MB):
     * beyond it, new records are dropped and counted ({@code grove_accounting_dropped_total}), and
     * {@code /healthz} says so, rather than the scheduler's memory growing without bound.
     */
    static final int MAX_HELD = 500_000;

    private final AccountingStore store;
    private final Duration retention;
    private final Duration meterEvery;
    private final Duration writeMeteringEvery;
    /** Everything given and not yet written, in order: the writer takes written ones off the head. */
    private final WaitingItems<LedgerItem> waiting = new WaitingItems<>();
    /** Pools' joined paths, on the writer's thread. */
    private final JoinedPaths paths = new JoinedPaths();
    /** How many job and operation records {@link #waiting} holds. */
    private final AtomicInteger held = new AtomicInteger();
    private final int maxHeld;
    private final Thread writer;
    private volatile boolean closed;
    /** Whether the ledger closes: ends the writer's wait for a batch (one, not one a wait). */
    private final BooleanSupplier stopping = () -> closed;
    /** Set by the writer when a tree's mark moved under it: the scheduler's side resumes from the database's. */
    private final Map<String, Long> resync = new ConcurrentHashMap<>();
    private final Consumer<List<HourlyUsage>> metered;

    // the scheduler's thread only
    private final Map<String, Metering> meters = new HashMap<>();
    private final Map<String, Long> expected = new HashMap<>();
    private Instant lastSample;
    private Instant lastMeteringWrite;

    // counters, any thread
    private final AtomicLong written = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private volatile String lastFailure;
    /** Since when writes fail (cleared by the next that succeeds), or {@code null}. */
    private volatile Instant failingSince;

    /**
     * @param metered told of every metering row drained (on the scheduler's thread), for the counters
     */
    public Ledger(AccountingStore store, Duration retention, Consumer<List<HourlyUsage>> metered) {
        this(store, retention, METER_EVERY, WRITE_METERING_EVERY, metered);
    }

    /**
     * @param meterEvery how often the pools are sampled
     * @param writeMeteringEvery how often what was metered is queued for the database
     */
    public Ledger(AccountingStore store, Duration retention, Duration meterEvery, Duration writeMeteringEvery,
            Consumer<List<HourlyUsage>> metered) {
        this(store, retention, meterEvery, writeMeteringEvery, metered, MAX_HELD);
    }

    /** @param maxHeld the most records held unwritten (tests: a small bound) */
    Ledger(AccountingStore store, Duration retention, Duration meterEvery, Duration writeMeteringEvery,
            Consumer<List<HourlyUsage>> metered, int maxHeld) {
        this.maxHeld = maxHeld;
        this.store = store;
        this.retention = retention;
        this.meterEvery = meterEvery;
        this.writeMeteringEvery = writeMeteringEvery;
        this.metered = metered;
        Map<String, Long> marks;
        try {
            marks = store.marks();
        } catch (AccountingException e) {
            LOG.warn("accounting: cannot read where metering left off ({}); it resumes when the database answers",
                    e.getMessage());
            marks = Map.of();
        }
        marks.forEach((tree, mark) -> expected.put(tree, mark));
        this.writer = DaemonThreads.start("grove-ledger", this::writeLoop);
    }

    public String describe() {
        return store.describe();
    }

    public AccountingStore store() {
        return store;
    }

    // ---------------------------------------------------------------- the scheduler's thread

    /** Hears the registry's job ends and finished operations, reading their pools from {@code cluster}. */
    public RegistryListener listener(ClusterView cluster) {
        return new RegistryListener() {
            @Override
            public void jobEnded(Job job) {
                Ledger.this.jobEnded(job, cluster);
            }

            @Override
            public void operationFinished(Operation operation) {
                Ledger.this.operationFinished(operation);
            }
        };
    }

    /** A job ended (on the scheduler's thread). */
    public void jobEnded(Job job, ClusterView cluster) {
        Operation operation = cluster.registry().operation(job.operationId());
        if (operation == null) {
            give(new LedgerItem.Ended(job, null, null, null));
            return;
        }
        give(new LedgerItem.Ended(job, operation.user(), operation.poolByTree().get(job.tree()),
                cluster.registry().pathsToRoot(operation).get(job.tree())));
    }

    private void give(LedgerItem item) {
        if (held.get() >= maxHeld) {
            if (dropped.getAndIncrement() == 0) {
                LOG.error("accounting: {} records wait for the database ({}); new ones are dropped until it takes them",
                        held.get(), lastFailure);
            }
            return;
        }
        held.incrementAndGet();
        waiting.add(item, false);
    }

    /** An operation finished (on the scheduler's thread). */
    public void operationFinished(Operation operation) {
        give(new LedgerItem.OfOperation(OperationRecord.of(operation)));
    }

    /**
     * What a crash may have kept from the database, as revival found it: the records the last
     * snapshot kept because they were not written when it was taken, the job ends the journal (or
     * ZooKeeper) replayed since, and the finished operations. Written again; kept once.
     */
    public void revived(Revival.Outcome revived, ClusterView cluster) {
        revived.ledgerPending().forEach(pending -> replayed(pending.jobs(), pending.operations()));
        revived.endedJobs().forEach(job -> jobEnded(job, cluster));
        revived.finished(cluster).forEach(this::operationFinished);
    }

    /** Records to write (again); kept once (on the scheduler's thread, or before it runs). */
    public void replayed(List<JobRecord> jobs, List<OperationRecord> operations) {
        jobs.forEach(job -> give(new LedgerItem.Given(job)));
        operations.forEach(operation -> give(new LedgerItem.OfOperation(operation)));
    }

    /**
     * A snapshot with the job and operation records given and not yet written (on the scheduler's
     * thread, as it is taken): it drops the events they came from, so it keeps them.
     */
    public Revival.Captured keepUnwritten(Revival.Captured snapshot) {
        List<LedgerItem> items = waiting.snapshot();
        if (items.stream().noneMatch(item -> item instanceof LedgerItem.OfJob || item instanceof LedgerItem.OfOperation)) {
            return snapshot;
        }
        // the records are made as the journal writes the snapshot, on its thread
        return snapshot.with(() -> {
            JoinedPaths paths = new JoinedPaths();
            List<JobRecord> jobs = new ArrayList<>();
            List<OperationRecord> operations = new ArrayList<>();
            for (LedgerItem item : items) {
                if (item instanceof LedgerItem.OfJob job) {
                    jobs.add(job.record(paths));
                } else if (item instanceof LedgerItem.OfOperation operation) {
                    operations.add(operation.record());
                }
            }
            return new JournalEvent.LedgerPending(jobs, operations);
        });
    }

    /**
     * Samples every tree's pools at most every {@code meterEvery}, and queues what was metered
     * every {@code writeMeteringEvery} (on the scheduler's thread, after a fair-share update).
     */
    public void meter(ClusterView cluster, Instant now) {
        resync.forEach((tree, mark) -> {
            meters.put(tree, new Metering(tree, mark));
            expected.put(tree, mark);
            resync.remove(tree);
        });
        if (lastSample != null && now.isBefore(lastSample.plus(meterEvery))) {
            return;
        }
        lastSample = now;
        for (String tree : cluster.treeNames()) {
            meters.computeIfAbsent(tree, t -> new Metering(t, expected.getOrDefault(t, -1L)))
                    .sample(now.toEpochMilli(), PoolSamples.of(cluster, tree));
        }
        if (lastMeteringWrite == null || !now.isBefore(lastMeteringWrite.plus(writeMeteringEvery))) {
            lastMeteringWrite = now;
            drainMetering();
        }
    }

    /** Queues what every tree metered since the last time (on the scheduler's thread). */
    public void drainMetering() {
        for (Metering meter : meters.values()) {
            if (meter.meteredUntil() < 0) {
                continue;
            }
            List<HourlyUsage> rows = meter.drain();
            long from = expected.getOrDefault(meter.tree(), -1L);
            if (rows.isEmpty() && from == meter.meteredUntil()) {
                continue;
            }
            metered.accept(rows);
            waiting.add(new LedgerItem.MeteredHours(meter.tree(), rows, from, meter.meteredUntil()), false);
            expected.put(meter.tree(), meter.meteredUntil());
        }
    }

    /** Completes once everything queued before it is in the database. */
    public CompletableFuture<Void> barrier() {
        CompletableFuture<Void> done = new CompletableFuture<>();
        waiting.add(new LedgerItem.Barrier(done), true);
        return done;
    }

    // ---------------------------------------------------------------- the ledger's thread

    private void writeLoop() {
        // its work may wait: on busy cores it yields to the threads that answer heartbeats
        BackgroundPriority.lower();
        long backoffMs = 100;
        long lastExpiry = 0;
        while (!closed || waiting.size() > 0) {
            List<LedgerItem> batch = List.of();
            try {
                if (!waiting.awaitAny(200)) {
                    lastExpiry = expireIfDue(lastExpiry);
                    continue;
                }
                // a full batch, or what came in WRITE_EVERY: a commit (and its sync) per batch, not per few records
                batch = waiting.batch(BATCH, closed ? 0 : WRITE_EVERY.toMillis(), stopping);
                write(batch);
                waiting.written(batch.size());
                backoffMs = 100;
                lastExpiry = expireIfDue(lastExpiry);
            } catch (AccountingException e) {
                failures.incrementAndGet();
                lastFailure = e.getMessage();
                if (failingSince == null) {
                    failingSince = Instant.now();
                }
                LOG.warn("accounting: a write of {} records failed ({}); it is tried again in {} ms", batch.size(),
                        e.getMessage(), backoffMs);
                if (closed) {
                    break;
                }
                sleep(backoffMs);
                backoffMs = Math.min(10_000, backoffMs * 2);
            } catch (InterruptedException e) {
                if (closed) {
                    break;
                }
            } catch (RuntimeException e) {
                LOG.error("accounting: the ledger's writer failed", e);
                sleep(1000);
            }
        }
    }

    private void write(List<LedgerItem> items) throws AccountingException {
        List<JobRecord> jobs = new ArrayList<>();
        List<OperationRecord> operations = new ArrayList<>();
        List<HourlyUsage> hours = new ArrayList<>();
        Map<String, long[]> marks = new LinkedHashMap<>();
        List<CompletableFuture<Void>> barriers = new ArrayList<>();
        for (LedgerItem item : items) {
            if (item instanceof LedgerItem.OfJob job) {
                jobs.add(job.record(paths));
            } else if (item instanceof LedgerItem.OfOperation operation) {
                operations.add(operation.record());
            } else if (item instanceof LedgerItem.MeteredHours metering) {
                hours.addAll(metering.rows());
                long[] mark = marks.get(metering.tree());
                marks.put(metering.tree(), new long[] {mark == null ? metering.expected() : mark[0], metering.next()});
            } else if (item instanceof LedgerItem.Barrier barrier) {
                barriers.add(barrier.done());
            }
        }
        List<String> moved = store.write(new AccountingBatch(jobs, operations, hours, marks));
        written.addAndGet(jobs.size() + operations.size());
        held.addAndGet(-(jobs.size() + operations.size()));
        if (failingSince != null) {
            LOG.info("accounting: the database takes writes again ({} records waited)", held.get() + jobs.size()
                    + operations.size());
            failingSince = null;
        }
        if (!moved.isEmpty()) {
            Map<String, Long> now = store.marks();
            for (String tree : moved) {
                LOG.warn("accounting: tree {}'s metering was moved on by another writer; it resumes from there", tree);
                resync.put(tree, now.getOrDefault(tree, -1L));
            }
        }
        barriers.forEach(done -> done.complete(null));
    }

    private long expireIfDue(long last) {
        long now = System.currentTimeMillis();
        if (now - last < EXPIRE_EVERY.toMillis()) {
            return last;
        }
        try {
            int removed = store.expire(now - retention.toMillis());
            if (removed > 0) {
                LOG.info("accounting: {} job and operation records older than {} removed", removed, retention);
            }
        } catch (AccountingException e) {
            LOG.warn("accounting: cannot remove old records: {}", e.getMessage());
        }
        return now;
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Records written, writes that failed, the last failure, items waiting. */
    public long written() {
        return written.get();
    }

    public long failures() {
        return failures.get();
    }

    public String lastFailure() {
        return lastFailure;
    }

    public int waiting() {
        return held.get();
    }

    /** Records dropped because too many waited for the database. */
    public long dropped() {
        return dropped.get();
    }

    /** What {@code /healthz} says of accounting: {@code null} while it writes, else since when it cannot and what is held. */
    public String problem() {
        Instant since = failingSince;
        long lost = dropped.get();
        if (since == null && lost == 0) {
            return null;
        }
        return "accounting: " + (since == null ? "the database takes writes again"
                : "the database refuses writes since " + since + " (" + lastFailure + ")") + "; " + held.get()
                + " records wait to be written" + (lost == 0 ? "" : ", " + lost + " were dropped (at most " + maxHeld
                + " are held)");
    }

    /** Writes what is queued (for up to {@code wait}), then stops and closes the database. */
    @Override
    public void close() {
        close(Duration.ofSeconds(30));
    }

    public void close(Duration wait) {
        try {
            barrier().get(wait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            LOG.warn("accounting: {} records could not be written before the stop; the journal keeps them for the next "
                    + "start", waiting.size());
        }
        closed = true;
        waiting.wake();
        writer.interrupt();
        try {
            writer.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        store.close();
    }
}
