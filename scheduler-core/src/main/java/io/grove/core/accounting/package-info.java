/**
 * Accounting, pure: what a pool used and was promised, integrated over time and split at hour
 * boundaries ({@link Metering}), and the records of ended jobs and operations (docs/accounting.md).
 */
package io.grove.core.accounting;
