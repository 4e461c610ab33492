/**
 * A deterministic discrete-event simulator that drives the real scheduling core: a seed, a
 * virtual clock, simulated nodes that run jobs for their durations, periodic fair-share updates,
 * heartbeats with jitter, node loss and return, config changes, and invariants checked after every
 * event.
 */
package io.grove.core.sim;
