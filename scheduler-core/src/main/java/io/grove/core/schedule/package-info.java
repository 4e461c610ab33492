/**
 * Heartbeat scheduling: the node's report ({@link io.grove.core.schedule.Heartbeat}), the descent
 * of reference §2.8 with preemptive stages (§3.3–§3.5), and the
 * {@link io.grove.core.schedule.Decision} with a typed reason for every start, preemption, abort
 * and idle resource.
 */
package io.grove.core.schedule;
