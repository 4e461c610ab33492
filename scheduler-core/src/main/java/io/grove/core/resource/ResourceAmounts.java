package io.grove.core.resource;

import java.math.BigDecimal;
import java.util.Locale;

/**
 * Parses resource amounts as admins write them: plain numbers everywhere, and for memory the
 * binary units {@code Ki Mi Gi Ti} and the decimal units {@code K M G T} ({@code 4Gi}, {@code 500M}).
 * CPU takes at most two decimal digits; user slots, GPU, memory and network are whole numbers.
 */
public final class ResourceAmounts {

    private ResourceAmounts() {
    }

    /**
     * Parses one amount.
     *
     * @param type the resource the amount is for
     * @param raw a {@link Number} or a {@link String}
     * @return the amount in the resource's unit (cores, bytes, count)
     * @throws IllegalArgumentException with a message that names the resource and the value
     */
    public static double parse(ResourceType type, Object raw) {
        if (raw instanceof Number number) {
            if ((number instanceof Double || number instanceof Float) && !Double.isFinite(number.doubleValue())) {
                throw new IllegalArgumentException(type.key() + ": expected a finite number, got " + raw);
            }
            return checked(type, new BigDecimal(number.toString()), raw);
        }
        if (!(raw instanceof String text)) {
            throw new IllegalArgumentException(type.key() + ": expected a number, got " + describe(raw));
        }
        String trimmed = text.trim();
        if (trimmed.isEmpty()) {
            throw new IllegalArgumentException(type.key() + ": empty value");
        }
        long multiplier = 1;
        String digits = trimmed;
        String unit = unitSuffix(trimmed);
        if (unit.length() == trimmed.length()) {
            throw new IllegalArgumentException(type.key() + ": not a number: '" + text + "'");
        }
        if (!unit.isEmpty()) {
            if (type != ResourceType.MEMORY) {
                throw new IllegalArgumentException(type.key() + ": units are only accepted for memory, got '" + text + "'");
            }
            multiplier = multiplier(unit, text);
            digits = trimmed.substring(0, trimmed.length() - unit.length()).trim();
        }
        BigDecimal value;
        try {
            value = new BigDecimal(digits);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(type.key() + ": not a number: '" + text + "'");
        }
        return checked(type, value.multiply(BigDecimal.valueOf(multiplier)), raw);
    }

    private static String unitSuffix(String text) {
        int end = text.length();
        int start = end;
        while (start > 0 && Character.isLetter(text.charAt(start - 1))) {
            start--;
        }
        return text.substring(start, end);
    }

    private static long multiplier(String unit, String text) {
        return switch (unit) {
            case "K" -> 1_000L;
            case "M" -> 1_000_000L;
            case "G" -> 1_000_000_000L;
            case "T" -> 1_000_000_000_000L;
            case "Ki" -> 1L << 10;
            case "Mi" -> 1L << 20;
            case "Gi" -> 1L << 30;
            case "Ti" -> 1L << 40;
            default -> throw new IllegalArgumentException("memory: unknown unit '" + unit + "' in '" + text
                    + "' (expected one of Ki, Mi, Gi, Ti, K, M, G, T)");
        };
    }

    /** The largest amount of memory anything may name: 1 EiB, in bytes. */
    public static final double MAX_MEMORY = 0x1p60;
    /** The largest amount of any other resource (cores, GPUs, slots, network units). */
    public static final double MAX_COUNT = 1e9;

    private static double checked(ResourceType type, BigDecimal value, Object raw) {
        if (value.signum() < 0) {
            throw new IllegalArgumentException(type.key() + ": must not be negative, got " + raw);
        }
        double max = type == ResourceType.MEMORY ? MAX_MEMORY : MAX_COUNT;
        if (value.compareTo(BigDecimal.valueOf(max)) > 0) {
            throw new IllegalArgumentException(type.key() + ": at most " + (type == ResourceType.MEMORY ? "1 EiB"
                    : "1e9") + ", got " + raw);
        }
        int maxScale = type == ResourceType.CPU ? 2 : 0;
        if (value.stripTrailingZeros().scale() > maxScale) {
            throw new IllegalArgumentException(type.key() + (maxScale == 0
                    ? ": must be a whole number, got " + raw
                    : ": at most two decimal digits, got " + raw));
        }
        return value.doubleValue();
    }

    private static String describe(Object raw) {
        return raw == null ? "nothing" : raw.getClass().getSimpleName().toLowerCase(Locale.ROOT) + " " + raw;
    }

    /** Formats bytes with the largest binary unit that divides them, e.g. {@code 4Gi}. */
    public static String formatBytes(double bytes) {
        if (bytes == 0 || bytes != Math.rint(bytes) || Double.isInfinite(bytes)) {
            return Double.isInfinite(bytes) ? "inf" : Long.toString((long) bytes);
        }
        long value = (long) bytes;
        String[] units = {"Ti", "Gi", "Mi", "Ki"};
        int[] shifts = {40, 30, 20, 10};
        for (int i = 0; i < units.length; i++) {
            long unit = 1L << shifts[i];
            if (value % unit == 0) {
                return (value / unit) + units[i];
            }
        }
        return Long.toString(value);
    }
}
