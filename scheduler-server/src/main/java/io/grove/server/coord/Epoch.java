package io.grove.server.coord;

/**
 * The epoch a leader claimed: its number, which only grows, and the version of the epoch record
 * that its claim wrote — every write of this leader checks that version ({@link Fencing}).
 */
public record Epoch(long number, int version) {

    public Epoch {
        if (number < 1) {
            throw new IllegalArgumentException("epochs start at 1, got " + number);
        }
    }
}
