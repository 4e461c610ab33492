/** JMH benchmarks and load drivers; results with their commands go to bench/RESULTS.md. */
package io.grove.bench;
