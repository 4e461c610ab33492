package io.grove.core.fairshare.function;

import java.util.ArrayList;
import java.util.List;

/**
 * The reference's own construction of {@code FairShareBySuggestion}, step by step: per resource,
 * transpose, narrow to {@code [guarantee, limit]}, trim, shift, extend; pointwise minimum over
 * resources ({@code MaxFitFactorBySuggestion}); composition. Kept in the tests as an oracle for
 * {@link SuggestionFunctions}, which computes the same function in one pass.
 */
final class ReferenceConstruction {

    private ReferenceConstruction() {
    }

    static PiecewiseLinearFunction fairShareBySuggestion(PiecewiseLinearFunction fsbff, double[] guarantee, double[] limits) {
        List<PiecewiseLinearFunction> perResource = new ArrayList<>();
        for (int r = 0; r < fsbff.dim(); r++) {
            PiecewiseLinearFunction component = fsbff.component(r);
            double low = component.leftValue(0);
            double high = component.rightValue(0);
            double limit = Math.min(Math.max(limits[r], low), high);
            double g = Math.min(Math.max(guarantee[r], low), limit);
            PiecewiseLinearFunction mff = trimLeft(narrow(transpose(component), g, limit)).shift(-g).extendRight(1.0).trimRight();
            perResource.add(mff);
        }
        return compose(fsbff, pointwiseMin(perResource));
    }

    static PiecewiseLinearFunction transpose(PiecewiseLinearFunction f) {
        FunctionBuilder builder = new FunctionBuilder(1, f.size());
        double[] value = new double[1];
        for (int i = 0; i < f.size(); i++) {
            if (i > 0 && f.v(i, 0) < f.v(i - 1, 0)) {
                throw new IllegalStateException("only a non-decreasing function can be transposed");
            }
            value[0] = f.x(i);
            builder.add(f.v(i, 0), value, 0);
        }
        return builder.build();
    }

    static PiecewiseLinearFunction trimLeft(PiecewiseLinearFunction f) {
        if (f.isTrimmedLeft()) {
            return f;
        }
        FunctionBuilder builder = new FunctionBuilder(f.dim(), f.size());
        double[] value = new double[f.dim()];
        if (f.size() == 2) {
            for (int c = 0; c < f.dim(); c++) {
                value[c] = f.v(1, c);
            }
            return builder.add(f.x(0), value, 0).build();
        }
        for (int i = 1; i < f.size(); i++) {
            for (int c = 0; c < f.dim(); c++) {
                value[c] = f.v(i, c);
            }
            builder.add(f.x(i), value, 0);
        }
        return builder.build();
    }

    static PiecewiseLinearFunction narrow(PiecewiseLinearFunction f, double left, double right) {
        FunctionBuilder builder = new FunctionBuilder(f.dim(), f.size() + 4);
        double[] value = new double[f.dim()];
        addLimits(f, builder, left, value);
        for (int i = 0; i < f.size(); i++) {
            if (f.x(i) > left && f.x(i) < right && (i == 0 || f.x(i) != f.x(i - 1))) {
                addLimits(f, builder, f.x(i), value);
            }
        }
        if (right > left) {
            addLimits(f, builder, right, value);
        }
        return builder.build();
    }

    private static void addLimits(PiecewiseLinearFunction f, FunctionBuilder builder, double x, double[] scratch) {
        f.leftLimit(x, scratch, 0);
        builder.add(x, scratch, 0);
        f.rightLimit(x, scratch, 0);
        builder.add(x, scratch, 0);
    }

    /** Pointwise minimum of scalar functions over the intersection of their domains. */
    static PiecewiseLinearFunction pointwiseMin(List<PiecewiseLinearFunction> functions) {
        PiecewiseLinearFunction result = functions.get(0);
        for (int i = 1; i < functions.size(); i++) {
            result = pointwiseMin(result, functions.get(i));
        }
        return result;
    }

    /** Pointwise minimum of two scalar functions, with the crossings of their pieces added as points. */
    static PiecewiseLinearFunction pointwiseMin(PiecewiseLinearFunction f, PiecewiseLinearFunction g) {
        double left = Math.max(f.leftBound(), g.leftBound());
        double right = Math.min(f.rightBound(), g.rightBound());
        double[] points = criticalPoints(f, g, left, right);
        FunctionBuilder builder = new FunctionBuilder(1, points.length * 3);
        double[] a = new double[1];
        double[] b = new double[1];
        for (int k = 0; k < points.length; k++) {
            double x = points[k];
            if (k > 0) {
                double crossing = crossing(f, g, points[k - 1], x, a, b);
                if (crossing > points[k - 1] && crossing < x) {
                    addMin(builder, f, g, crossing, a, b);
                }
            }
            addMin(builder, f, g, x, a, b);
        }
        return builder.build();
    }

    private static void addMin(FunctionBuilder builder, PiecewiseLinearFunction f, PiecewiseLinearFunction g,
            double x, double[] a, double[] b) {
        f.leftLimit(x, a, 0);
        g.leftLimit(x, b, 0);
        builder.add(x, Math.min(a[0], b[0]));
        f.rightLimit(x, a, 0);
        g.rightLimit(x, b, 0);
        builder.add(x, Math.min(a[0], b[0]));
    }

    /** Where two linear pieces on {@code (lo, hi)} cross, or NaN if they do not. */
    private static double crossing(PiecewiseLinearFunction f, PiecewiseLinearFunction g, double lo, double hi,
            double[] a, double[] b) {
        f.rightLimit(lo, a, 0);
        g.rightLimit(lo, b, 0);
        double dLo = a[0] - b[0];
        f.leftLimit(hi, a, 0);
        g.leftLimit(hi, b, 0);
        double dHi = a[0] - b[0];
        if ((dLo < 0 && dHi > 0) || (dLo > 0 && dHi < 0)) {
            return lo + (hi - lo) * (dLo / (dLo - dHi));
        }
        return Double.NaN;
    }

    /**
     * {@code outer(inner(x))} on the domain of {@code inner}, which must be a non-decreasing scalar
     * function with values in the domain of {@code outer}. The result is left-continuous and trimmed
     * on the right.
     */
    static PiecewiseLinearFunction compose(PiecewiseLinearFunction outer, PiecewiseLinearFunction inner) {
        if (inner.dim() != 1) {
            throw new IllegalArgumentException("the inner function of a composition must be scalar");
        }
        int m = inner.size();
        // Arguments of the outer plot that fall strictly inside a tilted piece of the inner function.
        double[] extraX = new double[outer.size()];
        double[] extraC = new double[outer.size()];
        int extras = 0;
        for (int k = 0; k < outer.size(); k++) {
            double c = outer.x(k);
            if (k > 0 && c == outer.x(k - 1)) {
                continue;
            }
            int p = lastBelow(inner, c);
            if (p < 0 || p + 1 >= m) {
                continue;
            }
            double v0 = inner.v(p, 0);
            double v1 = inner.v(p + 1, 0);
            double x0 = inner.x(p);
            double x1 = inner.x(p + 1);
            if (v1 > c && x0 < x1) {
                extraX[extras] = PiecewiseLinearFunction.lerp(x0, x1, (c - v0) / (v1 - v0));
                extraC[extras] = c;
                extras++;
            }
        }
        // Merge the inner plot's points and the extra points by (x, value).
        int total = m + extras;
        double[] px = new double[total];
        double[] pc = new double[total];
        int n = 0;
        int i = 0;
        int e = 0;
        while (i < m || e < extras) {
            double x;
            double c;
            if (e >= extras || (i < m && (inner.x(i) < extraX[e] || (inner.x(i) == extraX[e] && inner.v(i, 0) <= extraC[e])))) {
                x = inner.x(i);
                c = inner.v(i, 0);
                i++;
            } else {
                x = extraX[e];
                c = extraC[e];
                e++;
            }
            if (n > 0 && px[n - 1] == x && pc[n - 1] == c) {
                continue;
            }
            px[n] = x;
            pc[n] = c;
            n++;
        }
        FunctionBuilder builder = new FunctionBuilder(outer.dim(), n * 2);
        double[] value = new double[outer.dim()];
        for (int k = 0; k < n; k++) {
            if (k == 0 || px[k - 1] != px[k]) {
                outer.leftLimit(pc[k], value, 0);
                builder.add(px[k], value, 0);
            }
            if (k == n - 1 || px[k + 1] != px[k]) {
                if (k + 1 < n && pc[k + 1] > pc[k]) {
                    outer.rightLimit(pc[k], value, 0);
                } else {
                    outer.leftLimit(pc[k], value, 0);
                }
                builder.add(px[k], value, 0);
            }
        }
        return builder.build().trimRight();
    }

    /** Index of the last point whose scalar value is strictly below {@code c}, or -1. */
    private static int lastBelow(PiecewiseLinearFunction f, double c) {
        int lo = 0;
        int hi = f.size() - 1;
        if (f.v(0, 0) >= c) {
            return -1;
        }
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (f.v(mid, 0) < c) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    /** The sum of functions over the intersection of their domains, summed pairwise in a balanced tree. */
    static PiecewiseLinearFunction sum(List<PiecewiseLinearFunction> functions) {
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
    static PiecewiseLinearFunction sum(PiecewiseLinearFunction f, PiecewiseLinearFunction g) {
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

}
