/**
 * Heartbeat scheduling: the node's report ({@link io.grove.core.schedule.Heartbeat}), the descent
 * of docs/scheduling.md#the-heartbeat-decision with preemptive stages (docs/scheduling.md#preemptive-scheduling), and the
 * {@link io.grove.core.schedule.Decision} with a typed reason for every start, preemption, abort
 * and idle resource.
 */
package io.grove.core.schedule;
