/**
 * The daemon's side of accounting: the ledger that takes the scheduler's job and operation ends
 * and its pools' metering off the scheduler's thread to the accounting database (docs/accounting.md).
 */
package io.grove.server.accounting;
