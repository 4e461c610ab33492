/**
 * Durable state: an append-only journal of operation and job events (length, CRC-32, JSON),
 * fsynced before a change is acknowledged, compacted into a snapshot of the live state, and
 * replayed into a fresh {@link io.grove.core.cluster.Cluster} after a restart.
 */
package io.grove.server.state;
