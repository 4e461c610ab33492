/**
 * The scheduler daemon: one thread owns the {@link io.grove.core.cluster.Cluster}; the node
 * endpoint and the HTTP API turn requests into work on that thread; fair-share updates are
 * computed beside it; every accepted change is journaled before it is acknowledged.
 */
package io.grove.server;
