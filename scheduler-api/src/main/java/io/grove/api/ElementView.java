package io.grove.api;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * One element of a fair-share result — a pool, the root or an operation — as the what-if output
 * and the API show it: its shares of the tree, its fair share by origin, its satisfaction, and for
 * integral pools (and their parents) the volumes and ratios. Documented in {@code docs/what-if.md}.
 *
 * @param parent the parent's name; {@code null} for the root
 * @param fifoIndex the place among a FIFO pool's children, for operations of FIFO pools
 */
public record ElementView(
        String kind,
        @JsonInclude(JsonInclude.Include.ALWAYS) String parent,
        double weight,
        ResourceShares demandShare,
        ResourceShares usageShare,
        ResourceShares limitsShare,
        ResourceShares strongGuaranteeShare,
        ResourceShares integralShare,
        FairShareByOrigin fairShare,
        FairShareByOrigin promisedGuaranteeFairShare,
        double satisfactionRatio,
        Integer fifoIndex,
        String integralGuaranteeType,
        Amounts accumulatedResourceVolume,
        Double accumulatedResourceRatioVolume,
        Amounts integralPoolCapacity,
        Double specifiedBurstRatio,
        Double specifiedResourceFlowRatio,
        Double totalBurstRatio,
        Double totalResourceFlowRatio,
        Double estimatedBurstUsageDurationSeconds) {

    /** The same element with its integral guarantee type set (a pool's configured one). */
    public ElementView withIntegralGuaranteeType(String type) {
        return new ElementView(kind, parent, weight, demandShare, usageShare, limitsShare, strongGuaranteeShare,
                integralShare, fairShare, promisedGuaranteeFairShare, satisfactionRatio, fifoIndex, type,
                accumulatedResourceVolume, accumulatedResourceRatioVolume, integralPoolCapacity, specifiedBurstRatio,
                specifiedResourceFlowRatio, totalBurstRatio, totalResourceFlowRatio, estimatedBurstUsageDurationSeconds);
    }
}
