/**
 * Loading of {@code pools.yaml}: parse, validate and build in one call, every problem reported at
 * once with its pool path and YAML line. Used by the daemon, hot reload and {@code grove config validate}.
 */
package io.grove.config;
