package io.grove.core.fairshare;

/** A running sum that keeps the low-order bits lost to rounding (Neumaier's summation). */
final class CompensatedSum {

    private double sum;
    private double compensation;

    void add(double x) {
        double t = sum + x;
        if (Math.abs(sum) >= Math.abs(x)) {
            compensation += (sum - t) + x;
        } else {
            compensation += (x - t) + sum;
        }
        sum = t;
    }

    double value() {
        return sum + compensation;
    }
}
