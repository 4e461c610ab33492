package io.grove.core.fairshare;

import java.util.function.DoublePredicate;

/** Floating-point bisection for monotone predicates. */
final class Bisection {

    private Bisection() {
    }

    /**
     * The largest {@code x} in {@code [lo, hi]} with {@code predicate(x)}, for a predicate that
     * holds up to some point and fails after it; {@code lo} if it fails everywhere.
     */
    static double maxSatisfying(double lo, double hi, DoublePredicate predicate) {
        if (predicate.test(hi)) {
            return hi;
        }
        if (!predicate.test(lo)) {
            return lo;
        }
        for (int i = 0; i < 64; i++) {
            double mid = lo + (hi - lo) / 2;
            if (mid <= lo || mid >= hi) {
                break;
            }
            if (predicate.test(mid)) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
