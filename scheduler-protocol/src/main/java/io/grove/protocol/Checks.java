package io.grove.protocol;

import io.grove.core.resource.Resources;
import java.util.List;

/** Field checks of the message records; each failure names the field. */
public final class Checks {

    private Checks() {
    }

    public static String required(String value, String field) {
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException("'" + field + "' is required");
        }
        return value;
    }

    public static Resources required(Resources value, String field) {
        if (value == null) {
            throw new IllegalArgumentException("'" + field + "' is required");
        }
        return value;
    }

    public static <T> List<T> list(List<T> value) {
        return value == null ? List.of() : List.copyOf(value);
    }

    public static long nonNegative(long value, String field) {
        if (value < 0) {
            throw new IllegalArgumentException("'" + field + "' must not be negative, got " + value);
        }
        return value;
    }
}
