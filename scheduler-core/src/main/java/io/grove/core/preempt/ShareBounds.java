package io.grove.core.preempt;

/**
 * Comparisons of a usage share against a target share "per non-blocked resource" (see docs/scheduling.md#preemptive-scheduling):
 * a resource is blocked when the fair share already covers the demand for it. Resources with no
 * demand never count. When every demanded resource is blocked, all demanded resources count.
 * Arguments are shares of the tree total in resource order.
 */
public final class ShareBounds {

    private static final double EPSILON = 1e-9;

    private ShareBounds() {
    }

    /** Whether {@code usage} is strictly below {@code fairShare * factor} on every counted resource. */
    public static boolean below(double[] usage, double[] fairShare, double factor, double[] demand) {
        boolean anyCounted = false;
        boolean anyNonBlocked = false;
        for (int r = 0; r < usage.length; r++) {
            if (demand[r] > EPSILON && fairShare[r] < demand[r] - EPSILON) {
                anyNonBlocked = true;
            }
        }
        for (int r = 0; r < usage.length; r++) {
            boolean counted = demand[r] > EPSILON && (!anyNonBlocked || fairShare[r] < demand[r] - EPSILON);
            if (!counted) {
                continue;
            }
            anyCounted = true;
            if (!(usage[r] < fairShare[r] * factor - EPSILON)) {
                return false;
            }
        }
        return anyCounted;
    }

    /**
     * Below fair share for starvation (see docs/scheduling.md#starvation): for every non-blocked resource
     * {@code min(fs * tolerance, demand) > usage}; if every resource is blocked, for some resource.
     */
    public static boolean belowFairShare(double[] usage, double[] fairShare, double tolerance, double[] demand) {
        boolean anyNonBlocked = false;
        boolean allNonBlockedBelow = true;
        boolean someBelow = false;
        for (int r = 0; r < usage.length; r++) {
            boolean below = Math.min(fairShare[r] * tolerance, demand[r]) > usage[r] + EPSILON;
            someBelow |= below;
            if (fairShare[r] < demand[r] - EPSILON) {
                anyNonBlocked = true;
                allNonBlockedBelow &= below;
            }
        }
        return anyNonBlocked ? allNonBlockedBelow : someBelow;
    }

    /** Whether the fair share covers the whole demand (then an operation's tolerance is 1). */
    public static boolean coversDemand(double[] fairShare, double[] demand) {
        for (int r = 0; r < demand.length; r++) {
            if (fairShare[r] < demand[r] - 1e-6) {
                return false;
            }
        }
        return true;
    }
}
