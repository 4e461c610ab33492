/**
 * Operations and their jobs, the registry that owns them, operation-count limits with their
 * pending queues, and ephemeral pools (see docs/scheduling.md#operations-and-jobs and docs/scheduling.md#operation-count-limits).
 */
package io.grove.core.operation;
