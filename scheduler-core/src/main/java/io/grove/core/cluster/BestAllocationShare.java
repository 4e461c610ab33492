package io.grove.core.cluster;

import io.grove.core.resource.ResourceType;
import io.grove.core.resource.ShareVector;
import java.util.HashMap;
import java.util.Map;

/**
 * What an operation could use given how memory is spread over the tree's nodes (see docs/scheduling.md#demand):
 * with jobs of {@code m} bytes, a node of {@code M} bytes holds {@code floor(M/m)} of them, so the
 * usable memory share is {@code min(1, Σ floor(M/m) · m / total)}. Other resources are not capped.
 * Results are cached per job size for one update.
 */
final class BestAllocationShare {

    private final double[] nodeMemory;
    private final double totalMemory;
    private final Map<Double, ShareVector> cache = new HashMap<>();

    /** {@code nodeMemory}: each node's memory, in bytes (kept, not copied). */
    BestAllocationShare(double[] nodeMemory) {
        this.nodeMemory = nodeMemory;
        double sum = 0;
        for (double memory : this.nodeMemory) {
            sum += memory;
        }
        this.totalMemory = sum;
    }

    ShareVector forJobMemory(double jobMemory) {
        if (!(jobMemory > 0) || totalMemory == 0) {
            return ShareVector.uniform(1.0);
        }
        return cache.computeIfAbsent(jobMemory, m -> {
            double usable = 0;
            for (double memory : nodeMemory) {
                usable += Math.floor(memory / m) * m;
            }
            double[] share = {1, 1, 1, 1, 1};
            share[ResourceType.MEMORY.ordinal()] = Math.min(1.0, usable / totalMemory);
            return ShareVector.of(share);
        });
    }
}
