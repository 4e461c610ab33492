package io.grove.core.fairshare.function;

import java.util.Arrays;

/**
 * An immutable piecewise-linear function on a closed interval, with values of dimension
 * {@code dim} (1 for scalars, 5 for resource vectors). It is stored as its plot: points
 * {@code (x_i, v_i)} with non-decreasing {@code x}; consecutive points with equal {@code x} form a
 * vertical piece, i.e. a jump. The function is left-continuous: {@link #valueAt} is the left limit.
 */
public final class PiecewiseLinearFunction implements PlotPoints {

    private final int dim;
    private final double[] xs;
    private final double[] vs;

    PiecewiseLinearFunction(int dim, double[] xs, double[] vs) {
        this.dim = dim;
        this.xs = xs;
        this.vs = vs;
    }

    /** The constant function {@code value} on {@code [left, right]}. */
    public static PiecewiseLinearFunction constant(double left, double right, double[] value) {
        return linear(left, value, right, value);
    }

    /** The linear function from {@code (left, leftValue)} to {@code (right, rightValue)}. */
    public static PiecewiseLinearFunction linear(double left, double[] leftValue, double right, double[] rightValue) {
        return new FunctionBuilder(leftValue.length, 2).add(left, leftValue, 0).add(right, rightValue, 0).build();
    }

    /**
     * The ramp on {@code [0, 1]} from zero up to {@code top} at {@code knee}, then flat:
     * {@code top * min(1, s / knee)}. {@code knee} in {@code (0, 1]}.
     */
    public static PiecewiseLinearFunction ramp(double knee, double[] top) {
        int dim = top.length;
        double[] xs = knee >= 1.0 ? new double[] {0, 1} : new double[] {0, knee, 1};
        // Every row after the first is the top.
        double[] vs = new double[xs.length * dim];
        for (int row = 1; row < xs.length; row++) {
            System.arraycopy(top, 0, vs, row * dim, dim);
        }
        return new PiecewiseLinearFunction(dim, xs, vs);
    }

    public int dim() {
        return dim;
    }

    /** Number of points of the plot. */
    @Override
    public int size() {
        return xs.length;
    }

    @Override
    public double x(int i) {
        return xs[i];
    }

    public double v(int i, int component) {
        return vs[i * dim + component];
    }

    public double leftBound() {
        return xs[0];
    }

    public double rightBound() {
        return xs[xs.length - 1];
    }

    /** Value of component {@code c} at the right bound (the top of a final jump, if any). */
    public double rightValue(int c) {
        return vs[(xs.length - 1) * dim + c];
    }

    public double leftValue(int c) {
        return vs[c];
    }

    public double[] rightValue() {
        double[] out = new double[dim];
        System.arraycopy(vs, (xs.length - 1) * dim, out, 0, dim);
        return out;
    }

    /**
     * The end {@code j} of the piece {@code (j - 1, j)} that {@link #leftLimit} reads at {@code x}:
     * the first point after the first whose argument is at least {@code x}, at most the last
     * ({@code 1} for a single point).
     */
    public int leftPieceEnd(double x) {
        return leftPieceEnd(xs, 0, xs.length, x);
    }

    /** True when points {@code i} and {@code i + 1} form a jump. */
    public boolean isVertical(int i) {
        return xs[i] == xs[i + 1];
    }

    public boolean isTrimmedLeft() {
        return xs.length < 2 || !isVertical(0);
    }

    public boolean isTrimmedRight() {
        return xs.length < 2 || !isVertical(xs.length - 2);
    }

    /** The value at {@code x}, which is the left limit. */
    public double[] valueAt(double x) {
        double[] out = new double[dim];
        leftLimit(x, out, 0);
        return out;
    }

    /** Scalar value at {@code x}. */
    public double valueAt1(double x) {
        double[] out = new double[1];
        leftLimit(x, out, 0);
        return out[0];
    }

    /** Writes the left limit at {@code x} into {@code out[offset ..]}. Arguments outside the domain are clamped. */
    public void leftLimit(double x, double[] out, int offset) {
        leftLimit(xs, vs, dim, 0, xs.length, x, out, offset);
    }

    /** Writes the right limit at {@code x} into {@code out[offset ..]}. Arguments outside the domain are clamped. */
    public void rightLimit(double x, double[] out, int offset) {
        rightLimit(xs, vs, dim, 0, xs.length, x, out, offset);
    }

    /**
     * {@link #leftLimit(double, double[], int)} of the plot held in points {@code [from, to)} of
     * {@code xs} and rows {@code [from, to)} of {@code vs}, for plots stored side by side.
     */
    public static void leftLimit(double[] xs, double[] vs, int dim, int from, int to, double x, double[] out,
            int offset) {
        if (to - from == 1) {
            System.arraycopy(vs, from * dim, out, offset, dim);
            return;
        }
        valueOnPiece(xs, vs, dim, leftPieceEnd(xs, from, to, x) - 1, x, true, out, offset);
    }

    /**
     * The first piece {@code (j - 1, j)} of points {@code [from, to)} whose right end is at or after
     * x: its {@code j}. The first and the last piece are looked at before searching by halves (a
     * walk starts on the first piece, and a share is often read at either end of a plot).
     */
    private static int leftPieceEnd(double[] xs, int from, int to, double x) {
        if (to - from < 2 || xs[from + 1] >= x) {
            return from + 1;
        }
        if (xs[to - 2] < x) {
            return to - 1;
        }
        int lo = from + 2;
        int hi = to - 2;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (xs[mid] >= x) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo;
    }

    /** {@link #rightLimit(double, double[], int)} of a plot stored side by side with others, as in leftLimit. */
    public static void rightLimit(double[] xs, double[] vs, int dim, int from, int to, double x, double[] out,
            int offset) {
        if (to - from == 1) {
            System.arraycopy(vs, from * dim, out, offset, dim);
            return;
        }
        // The last piece (j, j + 1) whose left end is at or before x.
        int lo = from;
        int hi = to - 2;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (xs[mid] <= x) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        valueOnPiece(xs, vs, dim, lo, x, false, out, offset);
    }

    /** The value on piece {@code (i, i + 1)} at {@code x}; on a jump its bottom (left) or top (right). */
    private static void valueOnPiece(double[] xs, double[] vs, int dim, int i, double x, boolean leftOfJump,
            double[] out, int offset) {
        if (xs[i] == xs[i + 1]) {
            System.arraycopy(vs, (leftOfJump ? i : i + 1) * dim, out, offset, dim);
        } else {
            interpolate(xs, vs, dim, i, x, out, offset);
        }
    }

    /** Copies the values of points {@code [from, from + count)} into {@code out[offset ..]}. */
    @Override
    public void copyPoints(int from, int count, double[] out, int offset) {
        System.arraycopy(vs, from * dim, out, offset, count * dim);
    }

    /** Copies the value of point {@code i} into {@code out[offset ..]}. */
    public void copyPoint(int i, double[] out, int offset) {
        System.arraycopy(vs, i * dim, out, offset, dim);
    }

    /** Interpolates on the tilted piece {@code (i, i + 1)}; exact at both ends and monotone. */
    private static void interpolate(double[] xs, double[] vs, int dim, int i, double x, double[] out, int offset) {
        double x0 = xs[i];
        double x1 = xs[i + 1];
        double t = (x - x0) / (x1 - x0);
        if (t <= 0) {
            System.arraycopy(vs, i * dim, out, offset, dim);
            return;
        }
        if (t >= 1) {
            System.arraycopy(vs, (i + 1) * dim, out, offset, dim);
            return;
        }
        int a = i * dim;
        int b = (i + 1) * dim;
        for (int c = 0; c < dim; c++) {
            out[offset + c] = lerp(vs[a + c], vs[b + c], t);
        }
    }

    /** Linear interpolation that matches both ends exactly and is monotone in {@code t}. */
    static double lerp(double left, double right, double t) {
        return t < 0.5 ? left + (right - left) * t : right - (right - left) * (1 - t);
    }

    /**
     * The largest argument at which every component is at most {@code target}; the left bound if
     * even there some component is above it. The function must be non-decreasing.
     */
    public double maxArgumentNotAbove(double[] target) {
        double result = rightBound();
        for (int c = 0; c < dim; c++) {
            result = Math.min(result, maxArgumentNotAbove(c, target[c]));
        }
        return result;
    }

    private double maxArgumentNotAbove(int c, double target) {
        if (vs[c] > target) {
            return xs[0];
        }
        int p = lastPointNotAbove(c, target);
        if (p == xs.length - 1 || xs[p] == xs[p + 1]) {
            return xs[p];
        }
        double x0 = xs[p];
        double x1 = xs[p + 1];
        double v0 = vs[p * dim + c];
        double v1 = vs[(p + 1) * dim + c];
        double x = x0 + (target - v0) / (v1 - v0) * (x1 - x0);
        return Math.max(x0, Math.min(x1, x));
    }

    /**
     * The last point whose component {@code c} is at most {@code target}; the first point's must be.
     * The ends are looked at first: a walk starts where nothing is above the floor yet and ends
     * where everything is within the limits, and the values being non-decreasing, the search by
     * halves would find the same point there.
     */
    private int lastPointNotAbove(int c, double target) {
        int last = xs.length - 1;
        if (vs[last * dim + c] <= target) {
            return last;
        }
        if (vs[dim + c] > target) {
            return 0;
        }
        int lo = 1;
        int hi = last - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (vs[mid * dim + c] <= target) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    /**
     * The value at the furthest place along the plot, jumps included, where every component is
     * at most {@code target}: the top of a jump counts when it fits.
     */
    public double[] furthestValueNotAbove(double[] target) {
        double position = xs.length - 1;
        for (int c = 0; c < dim; c++) {
            position = Math.min(position, furthestPosition(c, target[c]));
        }
        int p = (int) position;
        double[] out = new double[dim];
        if (p >= xs.length - 1) {
            copyPoint(xs.length - 1, out, 0);
            return out;
        }
        double t = position - p;
        for (int c = 0; c < dim; c++) {
            out[c] = lerp(vs[p * dim + c], vs[(p + 1) * dim + c], t);
        }
        return out;
    }

    /** Point index plus the fraction of the next piece, of the furthest place with component c within target. */
    private double furthestPosition(int c, double target) {
        if (vs[c] > target) {
            return 0;
        }
        int p = lastPointNotAbove(c, target);
        if (p == xs.length - 1 || xs[p] == xs[p + 1]) {
            return p;
        }
        double v0 = vs[p * dim + c];
        double v1 = vs[(p + 1) * dim + c];
        return p + Math.min(Math.nextDown(1.0), (target - v0) / (v1 - v0));
    }

    /** One component as a scalar function. */
    public PiecewiseLinearFunction component(int c) {
        FunctionBuilder builder = new FunctionBuilder(1, xs.length);
        double[] value = new double[1];
        for (int i = 0; i < xs.length; i++) {
            value[0] = vs[i * dim + c];
            builder.add(xs[i], value, 0);
        }
        return builder.build();
    }

    /** Removes a jump at the right bound. */
    public PiecewiseLinearFunction trimRight() {
        if (isTrimmedRight()) {
            return this;
        }
        if (xs.length == 2) {
            return single(xs[0], 0);
        }
        return slice(0, xs.length - 1);
    }

    private PiecewiseLinearFunction single(double x, int pointIndex) {
        double[] value = new double[dim];
        System.arraycopy(vs, pointIndex * dim, value, 0, dim);
        return new PiecewiseLinearFunction(dim, new double[] {x}, value);
    }

    /** Points {@code [from, to)}. */
    private PiecewiseLinearFunction slice(int from, int to) {
        return new PiecewiseLinearFunction(dim, Arrays.copyOfRange(xs, from, to),
                Arrays.copyOfRange(vs, from * dim, to * dim));
    }

    /** {@code g(x) = f(x - delta)}: the plot moved right by {@code delta}. */
    public PiecewiseLinearFunction shift(double delta) {
        double[] newXs = new double[xs.length];
        for (int i = 0; i < xs.length; i++) {
            newXs[i] = xs[i] + delta;
        }
        return new PiecewiseLinearFunction(dim, newXs, vs);
    }

    /** Extends the domain to {@code [newLeft, newRight]} with the end values held constant. */
    public PiecewiseLinearFunction extend(double newLeft, double newRight) {
        if (newLeft >= xs[0] && newRight <= rightBound()) {
            return this;
        }
        FunctionBuilder builder = new FunctionBuilder(dim, xs.length + 2);
        if (newLeft < xs[0]) {
            builder.add(newLeft, vs, 0);
        }
        for (int i = 0; i < xs.length; i++) {
            builder.add(xs[i], vs, i * dim);
        }
        if (newRight > rightBound()) {
            builder.add(newRight, vs, (xs.length - 1) * dim);
        }
        return builder.build();
    }

    /** Extends the domain to the right with the last value held constant. */
    public PiecewiseLinearFunction extendRight(double newRight) {
        return extend(xs[0], newRight);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < xs.length; i++) {
            if (i > 0) {
                sb.append(", ");
            }
            sb.append('(').append(xs[i]).append(": ");
            for (int c = 0; c < dim; c++) {
                if (c > 0) {
                    sb.append(' ');
                }
                sb.append(vs[i * dim + c]);
            }
            sb.append(')');
        }
        return sb.append(']').toString();
    }
}
