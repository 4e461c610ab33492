/**
 * Starvation and preemptibility (reference §3.1–§3.2): which elements have been below their fair
 * share for too long, and which jobs of an operation may be taken from it.
 */
package io.grove.core.preempt;
