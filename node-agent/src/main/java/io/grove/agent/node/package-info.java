/**
 * The node's own books: {@link io.grove.agent.node.NodeLedger}, the rule that keeps scheduler jobs
 * and the Resource Broker's tasks from booking the same CPU and memory. Pure and single-threaded.
 */
package io.grove.agent.node;
