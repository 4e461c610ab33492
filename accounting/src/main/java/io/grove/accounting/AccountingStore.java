package io.grove.accounting;

import io.grove.core.accounting.JobRecord;
import java.util.List;
import java.util.Map;

/** Where the ledger and the metering live: SQLite or PostgreSQL ({@link JdbcAccountingStore}). */
public interface AccountingStore extends AutoCloseable {

    /**
     * Writes a batch in one transaction.
     *
     * @return the trees whose hours were not added because their mark had moved (another scheduler
     *     writes them now); empty normally
     * @throws AccountingException if the database refused or cannot be reached (nothing was written)
     */
    List<String> write(AccountingBatch batch) throws AccountingException;

    /** Where each tree's metering left off, epoch milliseconds. */
    Map<String, Long> marks() throws AccountingException;

    /** Resource-seconds in a period, grouped as asked. */
    List<UsageRow> usage(UsageQuery query) throws AccountingException;

    /** Ended jobs, the latest first. */
    List<JobRecord> jobs(JobQuery query) throws AccountingException;

    /** Removes job and operation records that ended before {@code cutoffMs} (hours stay); how many. */
    int expire(long cutoffMs) throws AccountingException;

    /** What the store is, for logs: {@code sqlite:PATH} or {@code postgresql://HOST/DB}. */
    String describe();

    @Override
    void close();
}
