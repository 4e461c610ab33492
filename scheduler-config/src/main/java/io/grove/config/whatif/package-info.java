/**
 * The what-if tool's formats: a snapshot (one tree, operations with demand and usage, integral
 * state, elapsed time) in, the fair-share update's result as JSON out.
 */
package io.grove.config.whatif;
