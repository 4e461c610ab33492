package io.grove.agent.broker;

import java.util.Arrays;

/**
 * Execution times of one task type: the last {@value #HISTORY} durations, starting as that many
 * copies of the type's default, so that measured durations replace the default one by one.
 */
final class DurationStats {

    static final int HISTORY = 20;

    private final long[] values = new long[HISTORY];
    private final long defaultMs;
    private int next;
    private long total;
    private long measured;

    DurationStats(long defaultMs) {
        this.defaultMs = defaultMs;
        Arrays.fill(values, defaultMs);
        total = defaultMs * HISTORY;
    }

    void add(long durationMs) {
        total += durationMs - values[next];
        values[next] = durationMs;
        next = (next + 1) % HISTORY;
        measured++;
    }

    /** The planned duration of a task of this type, in milliseconds. */
    long average() {
        return total / HISTORY;
    }

    long defaultMs() {
        return defaultMs;
    }

    long measured() {
        return measured;
    }
}
