/**
 * Heartbeat scheduling: the node's report ({@link io.grove.core.schedule.Heartbeat}), the descent
 * of docs/scheduling.md#the-heartbeat-decision with preemptive stages (docs/scheduling.md#preemptive-scheduling), and the
 * {@link io.grove.core.schedule.Decision} with a typed reason for every start, preemption, abort
 * and idle resource; and gangs, planned whole ({@link io.grove.core.schedule.GangScheduling},
 * {@link io.grove.core.schedule.GangPlanner}) and started from their plans
 * (docs/scheduling.md#gangs).
 */
package io.grove.core.schedule;
