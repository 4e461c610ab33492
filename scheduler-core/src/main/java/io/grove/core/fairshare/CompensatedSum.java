package io.grove.core.fairshare;

/** Running sums of vector components that keep the low-order bits lost to rounding (Neumaier's summation). */
final class CompensatedSum {

    private final double[] sum;
    private final double[] compensation;

    CompensatedSum(int size) {
        sum = new double[size];
        compensation = new double[size];
    }

    void add(int i, double x) {
        double s = sum[i];
        double t = s + x;
        if (Math.abs(s) >= Math.abs(x)) {
            compensation[i] += (s - t) + x;
        } else {
            compensation[i] += (x - t) + s;
        }
        sum[i] = t;
    }

    double value(int i) {
        return sum[i] + compensation[i];
    }
}
