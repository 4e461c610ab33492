package io.grove.core.fairshare.function;

import java.util.ArrayList;
import java.util.List;

/** Operations that combine piecewise-linear functions: sum, pointwise minimum, composition, compression. */
public final class FunctionOps {

    private FunctionOps() {
    }

    /** The sum of functions over the intersection of their domains, summed pairwise in a balanced tree. */
    public static PiecewiseLinearFunction sum(List<PiecewiseLinearFunction> functions) {
        if (functions.isEmpty()) {
            throw new IllegalArgumentException("sum of no functions");
        }
        List<PiecewiseLinearFunction> level = functions;
        while (level.size() > 1) {
            List<PiecewiseLinearFunction> next = new ArrayList<>((level.size() + 1) / 2);
            for (int i = 0; i + 1 < level.size(); i += 2) {
                next.add(sum(level.get(i), level.get(i + 1)));
            }
            if (level.size() % 2 == 1) {
                next.add(level.get(level.size() - 1));
            }
            level = next;
        }
        return level.get(0);
    }

    /** The sum of two functions of the same dimension over the intersection of their domains. */
    public static PiecewiseLinearFunction sum(PiecewiseLinearFunction f, PiecewiseLinearFunction g) {
        int dim = f.dim();
        double left = Math.max(f.leftBound(), g.leftBound());
        double right = Math.min(f.rightBound(), g.rightBound());
        double[] points = criticalPoints(f, g, left, right);
        FunctionBuilder builder = new FunctionBuilder(dim, points.length * 2);
        double[] a = new double[dim];
        double[] b = new double[dim];
        for (double x : points) {
            f.leftLimit(x, a, 0);
            g.leftLimit(x, b, 0);
            addInto(a, b);
            builder.add(x, a, 0);
            f.rightLimit(x, a, 0);
            g.rightLimit(x, b, 0);
            addInto(a, b);
            builder.add(x, a, 0);
        }
        return builder.build();
    }

    private static void addInto(double[] target, double[] other) {
        for (int c = 0; c < target.length; c++) {
            target[c] += other[c];
        }
    }

    /** Distinct arguments of both plots within {@code [left, right]}, both bounds included, sorted. */
    static double[] criticalPoints(PiecewiseLinearFunction f, PiecewiseLinearFunction g, double left, double right) {
        if (left > right) {
            throw new IllegalArgumentException("domains do not intersect: [" + left + ", " + right + "]");
        }
        double[] out = new double[f.size() + g.size() + 2];
        int n = 0;
        out[n++] = left;
        int i = 0;
        int j = 0;
        while (i < f.size() || j < g.size()) {
            double x;
            if (j >= g.size() || (i < f.size() && f.x(i) <= g.x(j))) {
                x = f.x(i++);
            } else {
                x = g.x(j++);
            }
            if (x > out[n - 1] && x < right) {
                out[n++] = x;
            }
        }
        if (right > out[n - 1]) {
            out[n++] = right;
        }
        return java.util.Arrays.copyOf(out, n);
    }

    /**
     * Drops points that lie within {@code epsilon} (in every component) of the chord that skips
     * them. Jumps are kept exactly.
     */
    public static PiecewiseLinearFunction compress(PiecewiseLinearFunction f, double epsilon) {
        int n = f.size();
        if (n <= 2) {
            return f;
        }
        int dim = f.dim();
        FunctionBuilder builder = new FunctionBuilder(dim, n);
        double[] lo = new double[dim];
        double[] hi = new double[dim];
        int start = 0;
        while (start < n) {
            // A run of points joined by tilted or horizontal pieces only.
            int end = start;
            while (end + 1 < n && f.x(end + 1) > f.x(end)) {
                end++;
            }
            compressRun(f, start, end, epsilon, builder, lo, hi);
            start = end + 1;
        }
        return builder.build();
    }

    private static void compressRun(PiecewiseLinearFunction f, int start, int end, double epsilon,
            FunctionBuilder builder, double[] lo, double[] hi) {
        int dim = f.dim();
        double[] point = new double[dim];
        emit(f, start, builder, point);
        int anchor = start;
        resetCone(lo, hi);
        for (int j = start + 1; j <= end; j++) {
            if (!chordFits(f, anchor, j, lo, hi)) {
                anchor = j - 1;
                emit(f, anchor, builder, point);
                resetCone(lo, hi);
            }
            double dx = f.x(j) - f.x(anchor);
            for (int c = 0; c < dim; c++) {
                double dv = f.v(j, c) - f.v(anchor, c);
                lo[c] = Math.max(lo[c], (dv - epsilon) / dx);
                hi[c] = Math.min(hi[c], (dv + epsilon) / dx);
            }
        }
        if (end > start) {
            emit(f, end, builder, point);
        }
    }

    private static boolean chordFits(PiecewiseLinearFunction f, int anchor, int j, double[] lo, double[] hi) {
        double dx = f.x(j) - f.x(anchor);
        for (int c = 0; c < f.dim(); c++) {
            double slope = (f.v(j, c) - f.v(anchor, c)) / dx;
            if (slope < lo[c] || slope > hi[c]) {
                return false;
            }
        }
        return true;
    }

    private static void resetCone(double[] lo, double[] hi) {
        java.util.Arrays.fill(lo, Double.NEGATIVE_INFINITY);
        java.util.Arrays.fill(hi, Double.POSITIVE_INFINITY);
    }

    private static void emit(PiecewiseLinearFunction f, int index, FunctionBuilder builder, double[] point) {
        for (int c = 0; c < f.dim(); c++) {
            point[c] = f.v(index, c);
        }
        builder.add(f.x(index), point, 0);
    }
}
