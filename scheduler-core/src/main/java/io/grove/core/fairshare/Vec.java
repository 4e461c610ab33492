package io.grove.core.fairshare;

import io.grove.core.resource.ResourceType;
import io.grove.core.resource.ShareVector;
import java.util.Arrays;

/** Arithmetic on resource vectors held as {@code double[5]}, used inside the update. */
final class Vec {

    static final int N = ResourceType.COUNT;
    /** A shared zero vector. Never written to: fields that start at zero are replaced, not updated. */
    static final double[] ZERO = new double[N];

    private Vec() {
    }

    static double[] zero() {
        return new double[N];
    }

    static double[] filled(double value) {
        double[] v = new double[N];
        Arrays.fill(v, value);
        return v;
    }

    static double[] plus(double[] a, double[] b) {
        double[] r = new double[N];
        for (int i = 0; i < N; i++) {
            r[i] = a[i] + b[i];
        }
        return r;
    }

    static void addTo(double[] target, double[] b) {
        for (int i = 0; i < N; i++) {
            target[i] += b[i];
        }
    }

    static double[] minus(double[] a, double[] b) {
        double[] r = new double[N];
        for (int i = 0; i < N; i++) {
            r[i] = a[i] - b[i];
        }
        return r;
    }

    static double[] times(double[] a, double factor) {
        double[] r = new double[N];
        for (int i = 0; i < N; i++) {
            r[i] = a[i] * factor;
        }
        return r;
    }

    static double[] min(double[] a, double[] b) {
        double[] r = new double[N];
        for (int i = 0; i < N; i++) {
            r[i] = Math.min(a[i], b[i]);
        }
        return r;
    }

    static double[] max(double[] a, double[] b) {
        double[] r = new double[N];
        for (int i = 0; i < N; i++) {
            r[i] = Math.max(a[i], b[i]);
        }
        return r;
    }

    static double[] clampNonNegative(double[] a) {
        return max(a, zero());
    }

    /** True when {@code a >= b} in every component. */
    static boolean dominates(double[] a, double[] b) {
        for (int i = 0; i < N; i++) {
            if (a[i] < b[i]) {
                return false;
            }
        }
        return true;
    }

    static double maxComponent(double[] a) {
        double r = a[0];
        for (int i = 1; i < N; i++) {
            r = Math.max(r, a[i]);
        }
        return r;
    }

    static boolean isZero(double[] a) {
        for (double x : a) {
            if (x != 0) {
                return false;
            }
        }
        return true;
    }

    /** {@code amount / total} with {@code 0/0 -> 0} and {@code x/0 -> 1}; the shared {@link #ZERO} for nothing. */
    static double[] share(double[] amount, double[] total) {
        if (isZero(amount)) {
            return ZERO;
        }
        double[] r = new double[N];
        for (int i = 0; i < N; i++) {
            r[i] = ShareVector.ratio(amount[i], total[i]);
        }
        return r;
    }

    /**
     * As {@link #share}, written over {@code amount} (which the caller reads no more); the shared
     * {@link #ZERO} where {@code amount} is zero.
     */
    static double[] shareInPlace(double[] amount, double[] total) {
        if (isZero(amount)) {
            return ZERO;
        }
        for (int i = 0; i < N; i++) {
            amount[i] = ShareVector.ratio(amount[i], total[i]);
        }
        return amount;
    }

    /** The largest {@code x_r / total_r} over resources with a non-zero total, 0 if there are none. */
    static double maxRatio(double[] amount, double[] total) {
        double r = 0;
        for (int i = 0; i < N; i++) {
            if (total[i] > 0) {
                r = Math.max(r, amount[i] / total[i]);
            }
        }
        return r;
    }

    /** The smallest {@code x_r / total_r} over resources with a non-zero total, 0 if there are none. */
    static double minRatio(double[] amount, double[] total) {
        double r = Double.POSITIVE_INFINITY;
        for (int i = 0; i < N; i++) {
            if (total[i] > 0) {
                r = Math.min(r, amount[i] / total[i]);
            }
        }
        return Double.isInfinite(r) ? 0 : r;
    }

    static ShareVector toShare(double[] a) {
        return ShareVector.of(a);
    }
}
