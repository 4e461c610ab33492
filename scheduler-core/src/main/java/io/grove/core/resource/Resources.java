package io.grove.core.resource;

/**
 * An absolute amount of each resource: user slots (count), CPU (cores, two decimals), GPU (count),
 * memory (bytes) and network (units). Components are non-negative; {@code +Infinity} stands for
 * "unlimited" and is only meaningful in limits.
 */
public record Resources(double userSlots, double cpu, double gpu, double memory, double network) {

    public static final Resources ZERO = new Resources(0, 0, 0, 0, 0);
    public static final Resources UNLIMITED = new Resources(
            Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY,
            Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY);

    public Resources {
        check(userSlots, ResourceType.USER_SLOTS);
        check(cpu, ResourceType.CPU);
        check(gpu, ResourceType.GPU);
        check(memory, ResourceType.MEMORY);
        check(network, ResourceType.NETWORK);
    }

    private static void check(double value, ResourceType type) {
        if (Double.isNaN(value) || value < 0) {
            throw new IllegalArgumentException(type.key() + " must be a non-negative number, got " + value);
        }
    }

    /** Builds a vector from components in {@link ResourceType} order. */
    public static Resources of(double[] values) {
        if (values.length != ResourceType.COUNT) {
            throw new IllegalArgumentException("expected " + ResourceType.COUNT + " components, got " + values.length);
        }
        return new Resources(values[0], values[1], values[2], values[3], values[4]);
    }

    public static Resources cpu(double cores) {
        return new Resources(0, cores, 0, 0, 0);
    }

    public double get(ResourceType type) {
        return get(type.ordinal());
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

    /** Writes the components into {@code out[0 .. COUNT)}. */
    public void copyInto(double[] out) {
        out[0] = userSlots;
        out[1] = cpu;
        out[2] = gpu;
        out[3] = memory;
        out[4] = network;
    }

    public double[] toArray() {
        return new double[] {userSlots, cpu, gpu, memory, network};
    }

    /** A copy with one component replaced. */
    public Resources with(ResourceType type, double value) {
        double[] values = toArray();
        values[type.ordinal()] = value;
        return of(values);
    }

    public Resources plus(Resources other) {
        return new Resources(userSlots + other.userSlots, cpu + other.cpu, gpu + other.gpu,
                memory + other.memory, network + other.network);
    }

    /** Component-wise difference, clamped at zero. */
    public Resources minusClamped(Resources other) {
        return new Resources(Math.max(0, userSlots - other.userSlots), Math.max(0, cpu - other.cpu),
                Math.max(0, gpu - other.gpu), Math.max(0, memory - other.memory),
                Math.max(0, network - other.network));
    }

    public Resources times(double factor) {
        return new Resources(userSlots * factor, cpu * factor, gpu * factor, memory * factor, network * factor);
    }

    public Resources min(Resources other) {
        return new Resources(Math.min(userSlots, other.userSlots), Math.min(cpu, other.cpu),
                Math.min(gpu, other.gpu), Math.min(memory, other.memory), Math.min(network, other.network));
    }

    public Resources max(Resources other) {
        return new Resources(Math.max(userSlots, other.userSlots), Math.max(cpu, other.cpu),
                Math.max(gpu, other.gpu), Math.max(memory, other.memory), Math.max(network, other.network));
    }

    /** True when every component is at least the other's. */
    public boolean dominates(Resources other) {
        for (int i = 0; i < ResourceType.COUNT; i++) {
            if (get(i) < other.get(i)) {
                return false;
            }
        }
        return true;
    }

    public boolean isZero() {
        return equals(ZERO);
    }

    /**
     * Rounds to each resource's precision: CPU to two decimals, the others to whole units.
     * Infinite components stay infinite.
     */
    public Resources quantized() {
        return new Resources(Math.rint(userSlots), Math.rint(cpu * 100) / 100, Math.rint(gpu),
                Math.rint(memory), Math.rint(network));
    }

    @Override
    public String toString() {
        return "{user_slots=" + fmt(userSlots) + ", cpu=" + fmt(cpu) + ", gpu=" + fmt(gpu) + ", memory="
                + fmt(memory) + ", network=" + fmt(network) + "}";
    }

    private static String fmt(double v) {
        if (Double.isInfinite(v)) {
            return "inf";
        }
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
    }
}
