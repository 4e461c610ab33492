/**
 * The scheduler's whole state and its one writer, {@link io.grove.core.cluster.Cluster}: nodes and
 * their trees, the operation registry, periodic fair-share updates with starvation, and heartbeats
 * as decide-then-apply. Readers see it through {@link io.grove.core.cluster.ClusterView}.
 */
package io.grove.core.cluster;
