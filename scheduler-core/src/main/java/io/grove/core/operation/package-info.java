/**
 * Operations and their jobs, the registry that owns them, operation-count limits with their
 * pending queues, and ephemeral pools (reference §4.3 and §5).
 */
package io.grove.core.operation;
