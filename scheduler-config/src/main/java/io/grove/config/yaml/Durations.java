package io.grove.config.yaml;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations as written in configuration: {@code 200ms}, {@code 30s}, {@code 5m}, {@code 1h}, {@code 1d}. */
public final class Durations {

    private static final Pattern FORMAT = Pattern.compile("\\s*([0-9]+(?:\\.[0-9]+)?)\\s*(ms|s|m|h|d)\\s*");

    private Durations() {
    }

    public static Duration parse(String text) {
        Matcher matcher = FORMAT.matcher(text);
        if (!matcher.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a duration (expected a number with a unit: ms, s, m, h or d, e.g. 30s)");
        }
        BigDecimal amount = new BigDecimal(matcher.group(1));
        long millisPerUnit = switch (matcher.group(2)) {
            case "ms" -> 1L;
            case "s" -> 1_000L;
            case "m" -> 60_000L;
            case "h" -> 3_600_000L;
            default -> 86_400_000L;
        };
        try {
            return Duration.ofMillis(amount.multiply(BigDecimal.valueOf(millisPerUnit)).setScale(0,
                    RoundingMode.DOWN).longValueExact());
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("'" + text + "' is too long a duration (at most about 292 million years)");
        }
    }

    /** The shortest exact form: {@code 1d}, {@code 90s}, {@code 200ms}. */
    public static String format(Duration duration) {
        long millis = duration.toMillis();
        if (millis % 86_400_000L == 0 && millis != 0) {
            return millis / 86_400_000L + "d";
        }
        if (millis % 3_600_000L == 0 && millis != 0) {
            return millis / 3_600_000L + "h";
        }
        if (millis % 60_000L == 0 && millis != 0) {
            return millis / 60_000L + "m";
        }
        if (millis % 1000 == 0) {
            return millis / 1000 + "s";
        }
        return millis + "ms";
    }
}
