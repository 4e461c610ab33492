/**
 * The node agent: {@link io.grove.agent.Agent} is the node's state on one thread (jobs, results
 * until acknowledged, the broker and the ledger between them); {@link io.grove.agent.AgentDaemon}
 * wires it to the scheduler, the HTTP endpoint and the broker's loopback port.
 */
package io.grove.agent;
