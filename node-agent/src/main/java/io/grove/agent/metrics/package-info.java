/** The agent's Micrometer metrics, the seed's broker sensors among them. */
package io.grove.agent.metrics;
