package io.grove.core.accounting;

import io.grove.core.resource.ResourceType;

/**
 * What a pool has at one instant, in each resource's units, by {@link MeterKind}:
 * {@code amounts[kind.ordinal()][resource.ordinal()]}.
 */
public record PoolSample(String pool, double[][] amounts) {

    public PoolSample {
        if (amounts.length != MeterKind.values().length) {
            throw new IllegalArgumentException("a sample has " + MeterKind.values().length + " kinds, got " + amounts.length);
        }
        for (double[] row : amounts) {
            if (row.length != ResourceType.COUNT) {
                throw new IllegalArgumentException("a sample has " + ResourceType.COUNT + " resources, got " + row.length);
            }
        }
    }

    /** A sample with nothing in it, to fill. */
    public static PoolSample empty(String pool) {
        return new PoolSample(pool, new double[MeterKind.values().length][ResourceType.COUNT]);
    }

    public double get(MeterKind kind, ResourceType resource) {
        return amounts[kind.ordinal()][resource.ordinal()];
    }
}
