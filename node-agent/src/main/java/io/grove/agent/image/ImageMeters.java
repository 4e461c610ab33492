package io.grove.agent.image;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What the node's images did, for its metrics: cache hits and misses (a job whose digest was
 * cached, or that needed a pull), pulls done and failed, and the time pulls took.
 */
public final class ImageMeters {

    private final AtomicLong hits = new AtomicLong();
    private final AtomicLong misses = new AtomicLong();
    private final AtomicLong pulls = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final AtomicLong pullMillis = new AtomicLong();

    void hit() {
        hits.incrementAndGet();
    }

    void miss() {
        misses.incrementAndGet();
    }

    void pulled(long ms) {
        pulls.incrementAndGet();
        pullMillis.addAndGet(ms);
    }

    void failed() {
        failures.incrementAndGet();
    }

    public long hits() {
        return hits.get();
    }

    public long misses() {
        return misses.get();
    }

    public long pulls() {
        return pulls.get();
    }

    public long failures() {
        return failures.get();
    }

    /** Seconds all completed pulls took, together. */
    public double pullSeconds() {
        return pullMillis.get() / 1000.0;
    }
}
