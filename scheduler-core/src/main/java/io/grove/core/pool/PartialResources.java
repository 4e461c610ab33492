package io.grove.core.pool;

import io.grove.core.resource.ResourceType;
import io.grove.core.resource.Resources;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/**
 * Resources as configured: only the components an admin wrote are present. Strong guarantees need
 * this distinction, since unset resources are inferred from the main resource. Immutable.
 */
public final class PartialResources {

    public static final PartialResources EMPTY = new PartialResources(Map.of());

    /** Amounts in resource order, NaN where unset. */
    private final double[] amounts = new double[ResourceType.COUNT];

    public PartialResources(Map<ResourceType, Double> values) {
        Arrays.fill(amounts, Double.NaN);
        for (Map.Entry<ResourceType, Double> entry : values.entrySet()) {
            double value = entry.getValue();
            if (Double.isNaN(value) || value < 0) {
                throw new IllegalArgumentException(entry.getKey().key() + " must be non-negative, got " + value);
            }
            amounts[entry.getKey().ordinal()] = value;
        }
    }

    public static PartialResources of(ResourceType type, double value) {
        return new PartialResources(Map.of(type, value));
    }

    /** The configured values. */
    public Map<ResourceType, Double> values() {
        EnumMap<ResourceType, Double> map = new EnumMap<>(ResourceType.class);
        for (int i = 0; i < amounts.length; i++) {
            if (!Double.isNaN(amounts[i])) {
                map.put(ResourceType.at(i), amounts[i]);
            }
        }
        return Collections.unmodifiableMap(map);
    }

    public boolean isEmpty() {
        for (double amount : amounts) {
            if (!Double.isNaN(amount)) {
                return false;
            }
        }
        return true;
    }

    public boolean isSet(ResourceType type) {
        return !Double.isNaN(amounts[type.ordinal()]);
    }

    public double get(ResourceType type, double orElse) {
        double value = amounts[type.ordinal()];
        return Double.isNaN(value) ? orElse : value;
    }

    /** Every component in resource order, with {@code orElse} for the ones not set. */
    public double[] toArray(double orElse) {
        double[] result = amounts.clone();
        for (int i = 0; i < result.length; i++) {
            if (Double.isNaN(result[i])) {
                result[i] = orElse;
            }
        }
        return result;
    }

    /** Every component, with {@code orElse} for the ones not set. */
    public Resources orElse(double orElse) {
        return Resources.of(toArray(orElse));
    }

    /** Unset components are unlimited. */
    public Resources asLimits() {
        return orElse(Double.POSITIVE_INFINITY);
    }

    public PartialResources with(ResourceType type, double value) {
        EnumMap<ResourceType, Double> copy = new EnumMap<>(ResourceType.class);
        copy.putAll(values());
        copy.put(type, value);
        return new PartialResources(copy);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof PartialResources that && Arrays.equals(amounts, that.amounts);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(amounts);
    }

    @Override
    public String toString() {
        return values().toString();
    }
}
