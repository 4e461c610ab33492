package io.grove.core.fairshare;

import io.grove.core.pool.IntegralGuaranteeType;
import io.grove.core.resource.Resources;

/**
 * The integral attributes of an integral pool after an update (see docs/fair-share.md#the-steps).
 *
 * @param guaranteeType burst or relaxed
 * @param accumulatedResourceVolume the bucket, in resource-seconds
 * @param accumulatedResourceRatioVolume the bucket in tree-share-seconds (smallest over resources)
 * @param integralPoolCapacity the bucket's capacity, in resource-seconds
 * @param specifiedBurstRatio burst guarantee as a ratio of the tree total
 * @param specifiedResourceFlowRatio flow as a ratio of the tree total
 * @param totalBurstRatio burst ratios of the subtree, this pool included
 * @param totalResourceFlowRatio flow ratios of the subtree, this pool included
 * @param estimatedBurstUsageDurationSeconds how long the bucket lasts at the burst guarantee, for
 *     burst pools whose burst ratio exceeds their flow ratio; {@code null} otherwise
 */
public record IntegralAttributes(
        IntegralGuaranteeType guaranteeType,
        Resources accumulatedResourceVolume,
        double accumulatedResourceRatioVolume,
        Resources integralPoolCapacity,
        double specifiedBurstRatio,
        double specifiedResourceFlowRatio,
        double totalBurstRatio,
        double totalResourceFlowRatio,
        Double estimatedBurstUsageDurationSeconds) {
}
