package io.grove.api;

/** A fair share split by where it comes from: guarantees, then weights; {@code total} is their sum. */
public record FairShareByOrigin(ResourceShares strongGuarantee, ResourceShares integralGuarantee,
        ResourceShares weightProportional, ResourceShares total) {
}
