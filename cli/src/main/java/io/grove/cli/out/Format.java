package io.grove.cli.out;

import java.time.Duration;
import java.time.Instant;
import java.util.Locale;

/** Numbers with their units, as tables show them: {@code 12.5 cpu}, {@code 48Gi}, {@code 37%}. */
public final class Format {

    private static final String[] UNITS = {"", "Ki", "Mi", "Gi", "Ti", "Pi"};

    private Format() {
    }

    public static String cpu(double cores) {
        return number(cores) + " cpu";
    }

    /** Bytes in binary units, at most one decimal: {@code 512Mi}, {@code 1.5Gi}. */
    public static String bytes(double bytes) {
        int unit = 0;
        double value = bytes;
        while (Math.abs(value) >= 1024 && unit < UNITS.length - 1) {
            value /= 1024;
            unit++;
        }
        return number(value) + UNITS[unit];
    }

    /** A share (0..1) as a percentage: {@code 37%}, {@code 0.5%} below one percent, {@code 0%}. */
    public static String percent(double share) {
        double p = share * 100;
        if (p == 0) {
            return "0%";
        }
        if (Math.abs(p) < 1) {
            return String.format(Locale.ROOT, "%.1f%%", p);
        }
        return String.format(Locale.ROOT, "%.0f%%", p);
    }

    /** A number without needless decimals: {@code 12}, {@code 12.5}, {@code 0.25}. */
    public static String number(double value) {
        if (value == Math.rint(value) && Math.abs(value) < 1e15) {
            return Long.toString((long) value);
        }
        String text = String.format(Locale.ROOT, Math.abs(value) >= 10 ? "%.1f" : "%.2f", value);
        return text.contains(".") ? text.replaceAll("0+$", "").replaceAll("\\.$", "") : text;
    }

    /** A duration as {@code 45s}, {@code 3m05s}, {@code 2h04m}, {@code 3d02h}. */
    public static String duration(Duration d) {
        long s = Math.max(0, d.getSeconds());
        if (s < 60) {
            return s + "s";
        }
        if (s < 3600) {
            return String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60);
        }
        if (s < 86_400) {
            return String.format(Locale.ROOT, "%dh%02dm", s / 3600, (s % 3600) / 60);
        }
        return String.format(Locale.ROOT, "%dd%02dh", s / 86_400, (s % 86_400) / 3600);
    }

    /** How long ago an ISO time was, or {@code -}. */
    public static String age(String iso, Instant now) {
        if (iso == null || iso.isEmpty()) {
            return "-";
        }
        try {
            return duration(Duration.between(Instant.parse(iso), now));
        } catch (RuntimeException e) {
            return iso;
        }
    }

    /** How long until an ISO time, {@code in 1m05s}, or {@code now} once it passed; the text itself when unreadable. */
    public static String until(String iso, Instant now) {
        try {
            Duration left = Duration.between(now, Instant.parse(iso));
            return left.isNegative() || left.isZero() ? "now" : "in " + duration(left);
        } catch (RuntimeException e) {
            return iso;
        }
    }
}
