/**
 * Exec nodes as the scheduler sees them: tag filters that assign a node to its pool tree, and the
 * node's limits, usage and jobs.
 */
package io.grove.core.node;
