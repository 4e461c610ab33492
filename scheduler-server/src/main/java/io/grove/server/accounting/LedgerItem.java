package io.grove.server.accounting;

import io.grove.core.accounting.HourlyUsage;
import io.grove.core.accounting.JobRecord;
import io.grove.core.accounting.OperationRecord;
import io.grove.core.operation.Job;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** What waits for the ledger's writer, in the order it was given. */
sealed interface LedgerItem {

    /** A job's record, given or made when it is written. */
    sealed interface OfJob extends LedgerItem permits Given, Ended {
        /** The record, its pool's path joined by {@code paths}. */
        JobRecord record(JoinedPaths paths);
    }

    /** A record given as it is (replayed at revival). */
    record Given(JobRecord record) implements OfJob {
        @Override
        public JobRecord record(JoinedPaths paths) {
            return record;
        }
    }

    /**
     * A job that ended, its record made by the writer: what the scheduler's thread hands over is
     * this and the job (alive already), not the record's strings.
     */
    record Ended(Job job, String user, String pool, List<String> toRoot) implements OfJob {
        @Override
        public JobRecord record(JoinedPaths paths) {
            return JobRecord.withPath(job, user, pool, pool != null && toRoot != null ? paths.of(toRoot) : null);
        }
    }

    record OfOperation(OperationRecord record) implements LedgerItem {
    }

    /** A tree's metered hours since the mark {@code expected}, moving it to {@code next}. */
    record MeteredHours(String tree, List<HourlyUsage> rows, long expected, long next) implements LedgerItem {
    }

    /** Completes once everything given before it is written. */
    record Barrier(CompletableFuture<Void> done) implements LedgerItem {
    }
}
