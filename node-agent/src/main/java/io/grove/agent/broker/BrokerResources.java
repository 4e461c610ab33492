package io.grove.agent.broker;

import java.math.BigDecimal;

/**
 * The two resources of the broker (docs/broker.md): CPU in thousandths of a core and memory in bytes.
 * In limits, {@link #UNLIMITED_AMOUNT} stands for a resource with no limit.
 *
 * @param cpuMillis CPU in thousandths of a core, non-negative
 * @param memory memory in bytes, non-negative
 */
public record BrokerResources(long cpuMillis, long memory) {

    /** The amount of a resource without a limit. */
    public static final long UNLIMITED_AMOUNT = Long.MAX_VALUE;

    public static final BrokerResources ZERO = new BrokerResources(0, 0);
    public static final BrokerResources UNLIMITED = new BrokerResources(UNLIMITED_AMOUNT, UNLIMITED_AMOUNT);

    /** The number of resources, and their names in order. */
    public static final String[] NAMES = {"cpu", "memory"};

    public BrokerResources {
        if (cpuMillis < 0 || memory < 0) {
            throw new IllegalArgumentException("resources must be non-negative, got cpu " + cpuMillis + "m, memory "
                    + memory);
        }
    }

    public static BrokerResources of(double cpu, long memory) {
        return new BrokerResources(Math.round(cpu * 1000), memory);
    }

    /** The amount of resource {@code index} (0 = CPU, 1 = memory). */
    public long get(int index) {
        return index == 0 ? cpuMillis : memory;
    }

    public double cpu() {
        return cpuMillis / 1000.0;
    }

    public BrokerResources plus(BrokerResources other) {
        return new BrokerResources(saturatedAdd(cpuMillis, other.cpuMillis), saturatedAdd(memory, other.memory));
    }

    public BrokerResources minus(BrokerResources other) {
        return new BrokerResources(Math.max(0, cpuMillis - other.cpuMillis), Math.max(0, memory - other.memory));
    }

    /** Component-wise minimum. */
    public BrokerResources min(BrokerResources other) {
        return new BrokerResources(Math.min(cpuMillis, other.cpuMillis), Math.min(memory, other.memory));
    }

    /** Component-wise maximum. */
    public BrokerResources max(BrokerResources other) {
        return new BrokerResources(Math.max(cpuMillis, other.cpuMillis), Math.max(memory, other.memory));
    }

    /** Whether {@code used + this} stays within {@code limit} on every resource. */
    public boolean fitsWith(BrokerResources used, BrokerResources limit) {
        for (int i = 0; i < NAMES.length; i++) {
            if (limit.get(i) != UNLIMITED_AMOUNT && saturatedAdd(used.get(i), get(i)) > limit.get(i)) {
                return false;
            }
        }
        return true;
    }

    /** Bit {@code i} set when resource {@code i} is asked for. */
    public int mask() {
        return (cpuMillis > 0 ? 1 : 0) | (memory > 0 ? 2 : 0);
    }

    /**
     * The dominant share of these resources in {@code total}: the largest {@code amount / total}
     * over the resources that have a finite, non-zero total; 0 when there is none.
     */
    public double dominantShare(BrokerResources total) {
        double share = 0;
        for (int i = 0; i < NAMES.length; i++) {
            long limit = total.get(i);
            if (limit != UNLIMITED_AMOUNT && limit > 0) {
                share = Math.max(share, (double) get(i) / limit);
            }
        }
        return share;
    }

    @Override
    public String toString() {
        return "{cpu: " + format(cpuMillis, true) + ", memory: " + format(memory, false) + "}";
    }

    private static String format(long amount, boolean cpu) {
        if (amount == UNLIMITED_AMOUNT) {
            return "unlimited";
        }
        return cpu ? BigDecimal.valueOf(amount, 3).stripTrailingZeros().toPlainString() : Long.toString(amount);
    }

    private static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return ((a ^ sum) & (b ^ sum)) < 0 ? Long.MAX_VALUE : sum;
    }
}
