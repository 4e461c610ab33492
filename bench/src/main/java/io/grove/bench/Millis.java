package io.grove.bench;

import java.util.Arrays;

/** Medians and maximums of timings in nanoseconds, as milliseconds, for the load programs' lines. */
final class Millis {

    private Millis() {
    }

    static double median(long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2] / 1e6;
    }

    static double max(long[] nanos) {
        return Arrays.stream(nanos).max().orElse(0) / 1e6;
    }
}
