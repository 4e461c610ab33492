/**
 * The node-local Resource Broker (docs/broker.md): weighted queues with limits, task types, the
 * dominant-resource rule {@code min max(C_R, C_P) / Weight}, and the seed's messages. Pure: time is
 * passed in, events are returned.
 */
package io.grove.agent.broker;
