/** Metrics observed from outside the core: Micrometer with the Prometheus registry. */
package io.grove.server.metrics;
