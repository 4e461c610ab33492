/**
 * The accounting database: the job ledger and the pools' hourly metering behind one small
 * interface ({@link AccountingStore}), on SQLite (embedded, the default) or PostgreSQL
 * ({@link JdbcAccountingStore}), its schema migrated by Flyway (docs/accounting.md).
 */
package io.grove.accounting;
