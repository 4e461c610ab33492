package io.grove.core.pool;

import io.grove.core.resource.ResourceType;
import io.grove.core.resource.Resources;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/**
 * Resources as configured: only the components an admin wrote are present. Strong guarantees need
 * this distinction, since unset resources are inferred from the main resource.
 */
public record PartialResources(Map<ResourceType, Double> values) {

    public static final PartialResources EMPTY = new PartialResources(Map.of());

    public PartialResources {
        EnumMap<ResourceType, Double> copy = new EnumMap<>(ResourceType.class);
        copy.putAll(values);
        for (Map.Entry<ResourceType, Double> entry : copy.entrySet()) {
            double value = entry.getValue();
            if (Double.isNaN(value) || value < 0) {
                throw new IllegalArgumentException(entry.getKey().key() + " must be non-negative, got " + value);
            }
        }
        values = Collections.unmodifiableMap(copy);
    }

    public static PartialResources of(ResourceType type, double value) {
        return new PartialResources(Map.of(type, value));
    }

    public boolean isEmpty() {
        return values.isEmpty();
    }

    public boolean isSet(ResourceType type) {
        return values.containsKey(type);
    }

    public double get(ResourceType type, double orElse) {
        Double value = values.get(type);
        return value == null ? orElse : value;
    }

    /** Every component, with {@code orElse} for the ones not set. */
    public Resources orElse(double orElse) {
        double[] result = new double[ResourceType.COUNT];
        for (int i = 0; i < ResourceType.COUNT; i++) {
            result[i] = get(ResourceType.at(i), orElse);
        }
        return Resources.of(result);
    }

    /** Unset components are unlimited. */
    public Resources asLimits() {
        return orElse(Double.POSITIVE_INFINITY);
    }

    public PartialResources with(ResourceType type, double value) {
        EnumMap<ResourceType, Double> copy = new EnumMap<>(ResourceType.class);
        copy.putAll(values);
        copy.put(type, value);
        return new PartialResources(copy);
    }
}
