/**
 * Grove's pure scheduling core: resource vectors, pool trees, the fair-share update, operations
 * and count limits, heartbeat decisions with starvation and preemption, and a deterministic
 * simulator. Nothing in this module performs I/O, starts threads or reads a clock; time and state
 * are passed in.
 */
package io.grove.core;
