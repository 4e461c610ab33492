/** Strict reading of YAML node trees: unknown keys refused, types checked, lines remembered. */
package io.grove.config.yaml;
