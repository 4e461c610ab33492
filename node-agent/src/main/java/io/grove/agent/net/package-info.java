/** The agent's network edges: the broker's loopback endpoint. */
package io.grove.agent.net;
