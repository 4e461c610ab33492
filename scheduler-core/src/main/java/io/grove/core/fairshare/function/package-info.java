/**
 * Monotone piecewise-linear functions, scalar or vector-valued, possibly discontinuous. A function
 * is stored as its plot: a polyline whose vertical pieces are the jumps. Every function is
 * left-continuous: at a jump its value is the left limit.
 */
package io.grove.core.fairshare.function;
