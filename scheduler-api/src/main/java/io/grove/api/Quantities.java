package io.grove.api;

import java.util.Map;

/** Amounts of the five resources as a user writes them (numbers or numbers with units); absent ones are not set. */
public record Quantities(Quantity userSlots, Quantity cpu, Quantity gpu, Quantity memory, Quantity network) {

    /** From a map keyed by {@link Amounts#KEYS}; another key is an error. */
    public static Quantities of(Map<String, Quantity> values) {
        Quantity[] set = new Quantity[Amounts.KEYS.length];
        values.forEach((key, value) -> set[Amounts.index(key)] = value);
        return new Quantities(set[0], set[1], set[2], set[3], set[4]);
    }
}
