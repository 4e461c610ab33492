package io.grove.core.resource;

/**
 * Per-resource fractions of a tree's total resources, in {@link ResourceType} order. Shares are
 * computed with {@code 0/0 -> 0} and {@code x/0 -> 1}.
 */
public record ShareVector(double userSlots, double cpu, double gpu, double memory, double network) {

    public static final ShareVector ZERO = new ShareVector(0, 0, 0, 0, 0);

    public static ShareVector of(double[] values) {
        return new ShareVector(values[0], values[1], values[2], values[3], values[4]);
    }

    /** Every component equal to {@code value}. */
    public static ShareVector uniform(double value) {
        return new ShareVector(value, value, value, value, value);
    }

    /** The share of {@code amount} in {@code total}, component-wise. */
    public static ShareVector of(Resources amount, Resources total) {
        double[] values = new double[ResourceType.COUNT];
        for (int i = 0; i < ResourceType.COUNT; i++) {
            values[i] = ratio(amount.get(i), total.get(i));
        }
        return of(values);
    }

    /** {@code x / total} with {@code 0/0 -> 0} and {@code x/0 -> 1}. */
    public static double ratio(double x, double total) {
        if (total == 0) {
            return x == 0 ? 0 : 1;
        }
        return x / total;
    }

    public double get(int index) {
        return switch (index) {
            case 0 -> userSlots;
            case 1 -> cpu;
            case 2 -> gpu;
            case 3 -> memory;
            case 4 -> network;
            default -> throw new IndexOutOfBoundsException("resource index " + index);
        };
    }

    public double get(ResourceType type) {
        return get(type.ordinal());
    }

    public double[] toArray() {
        return new double[] {userSlots, cpu, gpu, memory, network};
    }

    /** The largest component: the share of the dominant resource. */
    public double max() {
        return Math.max(Math.max(Math.max(userSlots, cpu), Math.max(gpu, memory)), network);
    }

    /** The resource with the largest share; ties go to the first in resource order. */
    public ResourceType dominantResource() {
        int best = 0;
        for (int i = 1; i < ResourceType.COUNT; i++) {
            if (get(i) > get(best)) {
                best = i;
            }
        }
        return ResourceType.at(best);
    }
}
