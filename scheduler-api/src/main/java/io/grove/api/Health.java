package io.grove.api;

/**
 * {@code GET /healthz} (the scheduler) and {@code GET /health} (an agent). A scheduler in a
 * high-availability group also says whether it leads, its epoch, and where the leader's API is.
 *
 * @param role {@code leader} or {@code standby}; absent for a scheduler on its own
 * @param epoch the leader's epoch, which only grows
 * @param leader the leader's API (e.g. {@code http://10.0.0.1:8080}), when known
 * @param problem why the status is {@code failing} (a scheduler that cannot write its state, 503) or
 *     {@code degraded} (it schedules, but something it keeps cannot be written: the accounting database)
 */
public record Health(String status, String role, Long epoch, String leader, String problem) {

    public Health(String status, String role, Long epoch, String leader) {
        this(status, role, epoch, leader, null);
    }

    /** This health, failing for {@code problem}. */
    public Health failing(String why) {
        return new Health("failing", role, epoch, leader, why);
    }

    /** This health, degraded for {@code problem}: the scheduler works, part of what it keeps does not. */
    public Health degraded(String why) {
        return new Health("degraded", role, epoch, leader, why);
    }

    public static final Health OK = new Health("ok", null, null, null);

    public static Health leader(long epoch, String api) {
        return new Health("ok", "leader", epoch, api);
    }

    public static Health standby(Long epoch, String leader) {
        return new Health("ok", "standby", epoch, leader);
    }
}
