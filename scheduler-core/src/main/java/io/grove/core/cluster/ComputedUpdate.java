package io.grove.core.cluster;

import io.grove.core.fairshare.ElementShares;
import io.grove.core.fairshare.FairShareResult;
import java.util.List;

/** A fair-share update's result with its elements, ready for {@link Cluster#publishFairShare}. */
public record ComputedUpdate(PreparedUpdate prepared, FairShareResult result, List<ElementShares> elements) {
}
