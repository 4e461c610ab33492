package io.grove.core.fairshare;

import io.grove.core.resource.ShareVector;

/**
 * What one update computed for one element of the tree.
 *
 * @param id pool name, operation id, or {@code <Root>}
 * @param kind root, pool or operation
 * @param parent the parent pool, {@code null} for the root
 * @param weight the element's weight
 * @param demandShare demand as a share of the tree total
 * @param usageShare usage as a share of the tree total
 * @param limitsShare the element's own limits as a share
 * @param strongGuaranteeShare the (inferred and adjusted) strong guarantee
 * @param integralShare the integral share proposed by burst and relaxed guarantees
 * @param fairShare the fair share, split by origin
 * @param promisedGuaranteeFairShare the fair share within guarantees only, where computed
 * @param satisfactionRatio local satisfaction: usage against fair share (1e9 when nothing is due)
 * @param fifoIndex position in a FIFO parent, or -1
 * @param integral the integral attributes of an integral pool, else {@code null}
 */
public record ElementShares(
        String id,
        ElementKind kind,
        String parent,
        double weight,
        ShareVector demandShare,
        ShareVector usageShare,
        ShareVector limitsShare,
        ShareVector strongGuaranteeShare,
        ShareVector integralShare,
        DetailedFairShare fairShare,
        DetailedFairShare promisedGuaranteeFairShare,
        double satisfactionRatio,
        int fifoIndex,
        IntegralAttributes integral) {
}
