/** The agent's configuration files: the broker's YAML (and its legacy Compaction Broker form). */
package io.grove.agent.config;
