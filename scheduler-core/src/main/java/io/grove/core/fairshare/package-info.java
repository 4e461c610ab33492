/**
 * The fair-share update (vector HDRF, see docs/fair-share.md#the-steps): strong guarantees, integral volumes and
 * shares, piecewise-linear fair-share functions built bottom-up and the distribution top-down.
 * {@link io.grove.core.fairshare.FairShareUpdate#run} is a pure function of its input.
 */
package io.grove.core.fairshare;
