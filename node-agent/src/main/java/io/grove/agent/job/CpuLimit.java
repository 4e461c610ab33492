package io.grove.agent.job;

import java.util.Locale;

/** How the agent holds a job to the CPU it ordered ({@code grove agent --cpu-limit}). */
public enum CpuLimit {
    /**
     * A CFS quota equal to the order, and a weight in proportion to it: a 1-cpu job gets at most one
     * core's time even on an idle node, as the reference throttles.
     */
    QUOTA,
    /** Only a weight in proportion to the order: work-conserving, a job may use idle cores. */
    WEIGHT,
    /** Neither: jobs share the node's CPU as ordinary processes do. */
    OFF;

    /** From {@code quota}, {@code weight} or {@code off}. */
    public static CpuLimit parse(String text) {
        try {
            return valueOf(text.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--cpu-limit takes quota, weight or off, got '" + text + "'");
        }
    }

    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }
}
