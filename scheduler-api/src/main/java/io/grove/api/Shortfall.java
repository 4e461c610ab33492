package io.grove.api;

/**
 * Why a running operation has less than its fair share, as the scheduler sees it (the command line
 * and the dashboard show {@code message}): {@code awaiting_fair_share} — no fair-share update has
 * counted it yet; {@code starving} — below its fair share past the starvation timeout, so
 * preemption may free room ({@code message} names the starvation state);
 * {@code waiting_for_resources} — its usage is below {@link #BELOW} of its fair share with jobs
 * still pending, and the cluster has no free room for them.
 */
public record Shortfall(String code, String message) {

    public static final String AWAITING_FAIR_SHARE = "awaiting_fair_share";
    public static final String STARVING = "starving";
    public static final String WAITING_FOR_RESOURCES = "waiting_for_resources";

    /** An operation counts as below its fair share under this fraction of it. */
    public static final double BELOW = 0.9;

    /**
     * The shortfall of an operation in {@code state} (lower case) with these shares and pending
     * jobs, or {@code null} when it has none.
     */
    public static Shortfall of(String state, Double fairShare, Double usageShare, String starvation, long pendingJobs) {
        if (!"running".equals(state)) {
            return null;
        }
        if (fairShare == null) {
            return new Shortfall(AWAITING_FAIR_SHARE, "waiting for the next fair-share update");
        }
        if (starvation != null && !starvation.equals("non_starving")) {
            return new Shortfall(STARVING, starvation.replace('_', ' ') + ": below fair share, preemption may free room");
        }
        if (usageShare != null && usageShare + 1e-9 < fairShare * BELOW && pendingJobs > 0) {
            return new Shortfall(WAITING_FOR_RESOURCES, "below fair share: waiting for free resources");
        }
        return null;
    }
}
