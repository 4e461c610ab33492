/**
 * Starvation and preemptibility (see docs/scheduling.md#starvation): which elements have been below their fair
 * share for too long, and which jobs of an operation may be taken from it.
 */
package io.grove.core.preempt;
