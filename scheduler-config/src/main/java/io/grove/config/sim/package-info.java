/** Reads simulator workloads from YAML, strictly, with every problem reported at once. */
package io.grove.config.sim;
