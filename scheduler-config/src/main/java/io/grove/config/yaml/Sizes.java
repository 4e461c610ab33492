package io.grove.config.yaml;

import io.grove.core.pool.ProblemCode;
import io.grove.core.resource.ResourceAmounts;
import io.grove.core.resource.ResourceType;

/** Sizes in bytes given with memory's units ({@code 10Gi}), read from a mapping and bounded. */
public final class Sizes {

    private Sizes() {
    }

    /**
     * {@code key} of {@code reader} in bytes: {@code null} when absent, -1 after a problem (the
     * reader has it, with the key's line).
     */
    public static Long bytes(MapReader reader, String key, double max, String maxText) {
        String raw = reader.string(key);
        if (raw == null) {
            return null;
        }
        try {
            double bytes = ResourceAmounts.parse(ResourceType.MEMORY, raw);
            if (bytes > max) {
                reader.problem(key, ProblemCode.BAD_VALUE, "at most " + maxText + ", got " + raw);
                return -1L;
            }
            return Math.round(bytes);
        } catch (IllegalArgumentException e) {
            reader.problem(key, ProblemCode.BAD_VALUE, e.getMessage());
            return -1L;
        }
    }
}
