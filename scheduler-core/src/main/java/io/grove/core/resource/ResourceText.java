package io.grove.core.resource;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Resources as people read them in messages: {@code 1 cpu, 2Gi memory, 8 gpu}. */
public final class ResourceText {

    private ResourceText() {
    }

    /** The amounts of the resources a job asks for: {@code 0.25 cpu, 64Mi memory}. */
    public static String describe(Resources amounts, Resources job) {
        List<String> parts = new ArrayList<>();
        for (ResourceType r : ResourceType.values()) {
            if (job.get(r) <= 0) {
                continue;
            }
            double value = amounts.get(r);
            parts.add(r == ResourceType.MEMORY || r == ResourceType.NETWORK ? bytes(value) + " " + r.key()
                    : number(value) + " " + r.key());
        }
        return String.join(", ", parts);
    }

    private static String number(double value) {
        if (value == Math.rint(value) && Math.abs(value) < 1e15) {
            return Long.toString((long) value);
        }
        return String.format(Locale.ROOT, "%.3f", value).replaceAll("0+$", "").replaceAll("\\.$", "");
    }

    /** Bytes in the largest binary unit below them, one decimal: {@code 10.7Gi}. */
    private static String bytes(double value) {
        String[] units = {"", "Ki", "Mi", "Gi", "Ti", "Pi"};
        int unit = 0;
        while (Math.abs(value) >= 1024 && unit < units.length - 1) {
            value /= 1024;
            unit++;
        }
        return number(Math.round(value * 10) / 10.0) + units[unit];
    }
}
