package io.grove.core.forecast;

import java.time.Duration;

/**
 * How often the daemon acts, which a forecast runs its copy at: nodes heartbeat every
 * {@code heartbeat} (and at once when a job of theirs ends), fair shares are updated every
 * {@code update} (a starving operation is seen within one of it).
 */
public record Cadence(Duration heartbeat, Duration update) {

    /** The daemon's defaults: a heartbeat a second, an update every 200 ms. */
    public static final Cadence DEFAULT = new Cadence(Duration.ofSeconds(1), Duration.ofMillis(200));

    public Cadence {
        if (heartbeat.isNegative() || heartbeat.isZero() || update.isNegative() || update.isZero()) {
            throw new IllegalArgumentException("a forecast's heartbeat and update periods are positive, got " + heartbeat
                    + " and " + update);
        }
    }
}
