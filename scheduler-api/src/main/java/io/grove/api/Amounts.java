package io.grove.api;

import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Amounts of the five resources ({@code memory} and {@code network} in bytes); a resource that is
 * absent is not set (unlimited, or not configured).
 */
public record Amounts(
        @JsonSerialize(using = WholeNumbers.class) Double userSlots,
        @JsonSerialize(using = WholeNumbers.class) Double cpu,
        @JsonSerialize(using = WholeNumbers.class) Double gpu,
        @JsonSerialize(using = WholeNumbers.class) Double memory,
        @JsonSerialize(using = WholeNumbers.class) Double network) {

    /** The resources' keys, in the order of the components. */
    public static final String[] KEYS = {"user_slots", "cpu", "gpu", "memory", "network"};

    public static final Amounts NONE = new Amounts(null, null, null, null, null);

    /** From values in the order of {@link #KEYS}; infinite and NaN values are left out. */
    public static Amounts of(double... values) {
        Double[] set = new Double[KEYS.length];
        for (int i = 0; i < values.length && i < set.length; i++) {
            set[i] = Double.isFinite(values[i]) ? values[i] : null;
        }
        return new Amounts(set[0], set[1], set[2], set[3], set[4]);
    }

    /** From a map keyed by {@link #KEYS}; other keys are an error. */
    public static Amounts of(Map<String, Double> values) {
        double[] all = {Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN};
        values.forEach((key, value) -> all[index(key)] = value == null ? Double.NaN : value);
        return of(all);
    }

    /** The set amounts by key, in the order of {@link #KEYS}. */
    public Map<String, Double> asMap() {
        Map<String, Double> out = new LinkedHashMap<>();
        Double[] values = {userSlots, cpu, gpu, memory, network};
        for (int i = 0; i < KEYS.length; i++) {
            if (values[i] != null) {
                out.put(KEYS[i], values[i]);
            }
        }
        return out;
    }

    /** The amount of a resource, or {@code fallback} when it is not set. */
    public double get(String key, double fallback) {
        Double value = asMap().get(key);
        return value == null ? fallback : value;
    }

    static int index(String key) {
        for (int i = 0; i < KEYS.length; i++) {
            if (KEYS[i].equals(key)) {
                return i;
            }
        }
        throw new IllegalArgumentException("unknown resource '" + key + "' (user_slots, cpu, gpu, memory, network)");
    }
}
