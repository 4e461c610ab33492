package io.grove.core.fairshare;

/**
 * Satisfaction of an element: how much of its fair share its usage covers (see docs/scheduling.md#the-heartbeat-decision). The
 * heartbeat descent serves the lowest satisfaction first; preemption compares it to thresholds.
 * All arguments are shares of the tree total in resource order.
 */
public final class Satisfaction {

    /** The sentinel for "nothing is due": an element whose fair share is zero. */
    public static final double INFINITE = 1e9;

    private Satisfaction() {
    }

    /**
     * Local satisfaction (see docs/scheduling.md#the-heartbeat-decision): infinite when nothing is due; above 1 when usage exceeds
     * the fair share somewhere; otherwise usage over fair share on the resources that still lack.
     */
    public static double local(double[] fairShare, double[] usage, double[] demand) {
        if (isNearZero(fairShare)) {
            return INFINITE;
        }
        boolean over = false;
        for (int r = 0; r < Vec.N; r++) {
            if (usage[r] > fairShare[r]) {
                over = true;
                break;
            }
        }
        if (over) {
            double max = 0;
            for (int r = 0; r < Vec.N; r++) {
                double ratio = fairShare[r] == 0 ? (usage[r] == 0 ? 0 : INFINITE) : usage[r] / fairShare[r];
                max = Math.max(max, ratio);
            }
            return Math.min(max, INFINITE);
        }
        boolean allBlocked = true;
        for (int r = 0; r < Vec.N; r++) {
            if (fairShare[r] < demand[r] - Element.EPSILON) {
                allBlocked = false;
                break;
            }
        }
        if (allBlocked) {
            double min = Double.POSITIVE_INFINITY;
            for (int r = 0; r < Vec.N; r++) {
                double ratio = fairShare[r] == 0 ? 1.0 : usage[r] / fairShare[r];
                min = Math.min(min, ratio);
            }
            return min;
        }
        double max = 0;
        for (int r = 0; r < Vec.N; r++) {
            boolean blocked = fairShare[r] >= demand[r] - Element.EPSILON;
            if (!blocked && fairShare[r] != 0) {
                max = Math.max(max, usage[r] / fairShare[r]);
            }
        }
        return max;
    }

    /** Whether every component of a share is within the update's tolerance of zero. */
    public static boolean isNearZero(double[] share) {
        for (double value : share) {
            if (value > Element.EPSILON) {
                return false;
            }
        }
        return true;
    }
}
