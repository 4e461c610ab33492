package io.grove.core.pool;

import java.time.Duration;

/**
 * When a tree's starving gangs get reservations (docs/scheduling.md#reservations-with-backfill).
 *
 * @param timeout how long a gang starves without fitting before it gets a reservation
 *     ({@code gang_reservation_timeout})
 * @param max how many reservations the tree holds at once ({@code max_gang_reservations}); 0 turns
 *     reservations off
 */
public record GangReservations(Duration timeout, int max) {

    /** The most reservations a tree may be given: each is looked after on the scheduler's thread. */
    public static final int MAX = 64;

    public static final GangReservations DEFAULT = new GangReservations(Duration.ofMinutes(1), 4);

    /** No reservations. */
    public static final GangReservations OFF = new GangReservations(Duration.ofMinutes(1), 0);

    public GangReservations {
        if (timeout == null || timeout.isNegative()) {
            throw new IllegalArgumentException("gang_reservation_timeout must not be negative, got " + timeout);
        }
        if (max < 0 || max > MAX) {
            throw new IllegalArgumentException("max_gang_reservations must be from 0 to " + MAX + ", got " + max);
        }
    }

    public boolean enabled() {
        return max > 0;
    }
}
