package io.grove.server;

import io.grove.server.accounting.Ledger;
import io.grove.server.loop.SchedulerLoop;
import io.grove.server.state.Revival;
import io.grove.server.state.StateLog;
import io.grove.server.state.WriteAhead;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rewrites the journal as a snapshot of the live state: when it grew long, when it was lost under
 * the daemon, and at a clean stop. A snapshot is captured on the scheduler's thread (so every event
 * after it is appended after it), keeps the records the ledger has not written yet, and is written
 * with the job starts still in flight.
 */
final class Compaction {

    private static final Logger LOG = LoggerFactory.getLogger(Compaction.class);

    private final StateLog journal;
    private final SchedulerLoop loop;
    private final WriteAhead writeAhead;
    /** {@code null} with accounting off. */
    private final Ledger ledger;
    private final Clock clock;
    private final long compactAfterRecords;
    private volatile long lastSnapshotRecords;

    Compaction(StateLog journal, SchedulerLoop loop, WriteAhead writeAhead, Ledger ledger, Clock clock,
            long compactAfterRecords) {
        this.journal = journal;
        this.loop = loop;
        this.writeAhead = writeAhead;
        this.ledger = ledger;
        this.clock = clock;
        this.compactAfterRecords = compactAfterRecords;
    }

    /** A snapshot with the records the ledger has not written yet, whose events the snapshot drops. */
    static Revival.Captured withLedger(Revival.Captured snapshot, Ledger ledger) {
        return ledger == null ? snapshot : ledger.keepUnwritten(snapshot);
    }

    /**
     * Compacts once the journal holds {@code compactAfterRecords} records and twice the last
     * snapshot (a snapshot holds every running job, so on a busy cluster compacting at a fixed count
     * would rewrite more than the events it saves), and writes one afresh at once when it was lost.
     */
    void compactIfNeeded() {
        boolean lost = journal.needsSnapshot();
        if (lost || journal.records() > Math.max(compactAfterRecords, 2 * lastSnapshotRecords)) {
            if (lost) {
                LOG.error("the journal was lost under the scheduler (deleted or replaced); writing the live state afresh");
            }
            loop.call(cluster -> {
                long started = System.nanoTime();
                Revival.Captured snapshot = withLedger(Revival.capture(cluster, clock.now()), ledger);
                lastSnapshotRecords = snapshot.size();
                LOG.info("compacting the journal: a snapshot of {} records captured in {} ms on the scheduler thread",
                        snapshot.size(), (System.nanoTime() - started) / 1_000_000);
                return journal.compact(writeAhead.withInFlight(snapshot::events));
            }).join().join();
        }
    }

    /** The stop's snapshot, after the ledger's last metering: done when the journal holds it. */
    CompletableFuture<Void> finalSnapshot() {
        return loop.call(cluster -> {
            if (ledger != null) {
                ledger.drainMetering();
            }
            Revival.Captured captured = withLedger(Revival.capture(cluster, clock.now()), ledger);
            return journal.compact(writeAhead.withInFlight(captured::events));
        }).thenCompose(done -> done);
    }
}
