/**
 * The scheduler's whole state and its one writer: nodes and their trees, the operation registry,
 * periodic fair-share updates with starvation, and heartbeats as decide-then-apply.
 */
package io.grove.core.cluster;
