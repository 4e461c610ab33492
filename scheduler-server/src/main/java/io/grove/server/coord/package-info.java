/**
 * The coordination service a high-availability group shares ({@link io.grove.server.coord.Coordination}):
 * an election, epochs claimed in turn, writes fenced by the epoch they were claimed under
 * ({@link io.grove.server.coord.Fencing}), and reads. {@link io.grove.server.coord.ZkCoordination}
 * is the ZooKeeper one; the tests hold an in-memory twin with injected time, partitions and
 * session expiry.
 */
package io.grove.server.coord;
