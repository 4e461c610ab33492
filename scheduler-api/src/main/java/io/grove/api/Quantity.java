package io.grove.api;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * An amount as a user writes it in a spec: a number ({@code 0.5}, bytes for memory) or a number
 * with a unit ({@code 2Gi}, {@code 500m}). The daemon checks and converts it.
 */
public record Quantity(@JsonValue Object value) {

    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    public Quantity {
        if (!(value instanceof Number) && !(value instanceof String)) {
            throw new IllegalArgumentException("an amount is a number or a number with a unit, got " + value);
        }
    }

    public static Quantity of(double amount) {
        return amount == Math.rint(amount) && Math.abs(amount) < 1e15 ? new Quantity((long) amount) : new Quantity(amount);
    }

    public static Quantity of(String amount) {
        return new Quantity(amount);
    }
}
