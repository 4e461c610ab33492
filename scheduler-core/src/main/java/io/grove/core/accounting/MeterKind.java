package io.grove.core.accounting;

import java.util.Locale;

/** What a pool's resource-seconds measure. */
public enum MeterKind {
    /** What its jobs used (its usage share of the tree's resources). */
    USED,
    /** Its fair share of the tree's resources. */
    FAIR_SHARE,
    /** Its configured strong guarantee. */
    STRONG_GUARANTEE,
    /** Its integral guarantee's configured resource flow. */
    RESOURCE_FLOW,
    /** Its integral guarantee's configured burst guarantee. */
    BURST_GUARANTEE;

    /** {@code used}, {@code fair_share}, ... */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The kind of a key; {@code null} when there is none. */
    public static MeterKind of(String key) {
        for (MeterKind kind : values()) {
            if (kind.key().equals(key)) {
                return kind;
            }
        }
        return null;
    }
}
