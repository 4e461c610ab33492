package io.grove.bench;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

/** Round trips measured after the warm-up. */
final class LoadStats {
private long[] values = new long[1 << 20];
private int size;
/** The slowest round trip of each second of the run (by the wall clock of the reply). */
private final Map<Long, Long> slowestPerSecond = new HashMap<>();
/** Round trips over 10 ms in each second, for {@link #timeline}. */
private final Map<Long, Integer> slowPerSecond = new HashMap<>();
final AtomicLong missed = new AtomicLong();
final AtomicLong started = new AtomicLong();
final AtomicLong pushed = new AtomicLong();

synchronized void add(long nanos) {
    if (size == values.length) {
        values = Arrays.copyOf(values, size * 2);
    }
    values[size++] = nanos;
    long second = System.currentTimeMillis() / 1000;
    slowestPerSecond.merge(second, nanos, Math::max);
    slowPerSecond.merge(second, nanos > 10_000_000 ? 1 : 0, Integer::sum);
}

/** One line per second (UTC seconds): round trips over 10 ms, and the slowest in ms. */
synchronized List<String> timeline() {
    List<String> lines = new ArrayList<>();
    new TreeMap<>(slowestPerSecond).forEach((second, slowest) -> lines.add(
            Instant.ofEpochSecond(second) + " " + slowPerSecond.get(second) + " " + slowest / 1_000_000));
    return lines;
}

/** How many seconds had their slowest round trip under {@code limitNanos}, of how many. */
synchronized int[] secondsUnder(long limitNanos) {
    int under = 0;
    for (long slowest : slowestPerSecond.values()) {
        under += slowest < limitNanos ? 1 : 0;
    }
    return new int[] {under, slowestPerSecond.size()};
}

synchronized long[] rtts() {
    return Arrays.copyOf(values, size);
}
}
