package io.grove.accounting;

/**
 * What {@code grove usage} asks: resource-seconds in {@code [sinceMs, untilMs)}, grouped.
 *
 * @param by {@code pool}, {@code tree}, {@code user} or {@code operation}
 * @param tree only this tree, or {@code null}
 * @param pool only this pool, or {@code null}
 * @param user only this user, or {@code null}
 * @param per {@code hour} or {@code day} for a row per group and period (pools and trees), or
 *     {@code null} for one row per group
 */
public record UsageQuery(String by, long sinceMs, long untilMs, String tree, String pool, String user, String per) {

    public UsageQuery(String by, long sinceMs, long untilMs, String tree, String pool, String user) {
        this(by, sinceMs, untilMs, tree, pool, user, null);
    }

    public UsageQuery {
        if (!by.equals("pool") && !by.equals("tree") && !by.equals("user") && !by.equals("operation")) {
            throw new IllegalArgumentException("usage is grouped by pool, tree, user or operation, not '" + by + "'");
        }
        if (untilMs <= sinceMs) {
            throw new IllegalArgumentException("the period ends before it starts");
        }
        if (per != null && !per.equals("hour") && !per.equals("day")) {
            throw new IllegalArgumentException("usage is given per hour or per day, not per '" + per + "'");
        }
        if (per != null && !by.equals("pool") && !by.equals("tree")) {
            throw new IllegalArgumentException("usage per " + per + " is kept for pools and trees, not by " + by);
        }
    }

    /** Whether it reads the pools' hours (used, guaranteed, fair) rather than the jobs' records (used). */
    public boolean fromHours() {
        return by.equals("pool") || by.equals("tree");
    }
}
