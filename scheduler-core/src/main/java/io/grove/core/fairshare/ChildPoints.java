package io.grove.core.fairshare;

import io.grove.core.fairshare.function.FunctionBuilder;
import io.grove.core.fairshare.function.PiecewiseLinearFunction;
import java.util.Arrays;

/**
 * A fair-share pool's children's {@code FairShareBySuggestion} functions with their arguments
 * scaled by weight and held up to 1, the plots stored one after another in two arrays: child
 * {@code i} owns points {@code [start(i), start(i + 1))}. The sweep and the distribution read
 * them in place, and an operation that only ramps up to its demand writes its three points here
 * without a function of its own.
 *
 * <p>A child's plot is its function's points with every argument divided by the scale (unless
 * the scale is 1), then, where that ends before 1, one more point at 1 with the last value.
 */
final class ChildPoints {

    final int dim;
    /** Arguments and values; they grow where more points come than there is room for. */
    double[] xs;
    double[] vs;
    private int[] starts;
    private int children;
    private int size;
    /** Distinct arguments over all plots: the number of critical points of the sweep. */
    private int distinct;

    /**
     * @param dim components of each value
     * @param count children
     * @param capacity points over all children, extension points included
     */
    ChildPoints(int dim, int count, int capacity) {
        this.dim = dim;
        this.xs = new double[capacity];
        this.vs = new double[capacity * dim];
        this.starts = new int[count + 1];
    }

    /**
     * Forgets every child, keeping the room: one set serves every pool of an update in turn
     * (growing as it needs), and each keeps an exact {@link #copy}.
     */
    void reset() {
        children = 0;
        size = 0;
        distinct = 0;
    }

    /** The points as they are, in arrays of their exact size. */
    ChildPoints copy() {
        ChildPoints copy = new ChildPoints(dim, children, size);
        System.arraycopy(xs, 0, copy.xs, 0, size);
        System.arraycopy(vs, 0, copy.vs, 0, size * dim);
        System.arraycopy(starts, 0, copy.starts, 0, children + 1);
        copy.children = children;
        copy.size = size;
        copy.distinct = distinct;
        return copy;
    }

    /** The most points a plot of {@code size} points takes here: one more, to hold the last value up to 1. */
    static int bound(int size) {
        return size + 1;
    }

    int count() {
        return children;
    }

    int start(int child) {
        return starts[child];
    }

    int end(int child) {
        return starts[child + 1];
    }

    /** The child whose plot holds point {@code point}. */
    int childOf(int point) {
        // The last child starting at or before the point: plots are never empty, so starts rise.
        int low = 0;
        int high = children - 1;
        while (low < high) {
            int middle = (low + high + 1) >>> 1;
            if (starts[middle] <= point) {
                low = middle;
            } else {
                high = middle - 1;
            }
        }
        return low;
    }

    int distinct() {
        return distinct;
    }

    /** Appends the next child's function, its argument divided by {@code scale}, held up to 1. */
    void add(PiecewiseLinearFunction f, double scale) {
        int n = f.size();
        fit(bound(n));
        f.copyPoints(0, n, vs, size * dim);
        for (int i = 0; i < n; i++) {
            point(scale == 1.0 ? f.x(i) : f.x(i) / scale);
        }
        closeChild();
    }

    /** As {@link #add(PiecewiseLinearFunction, double)}, for the function {@code builder} holds. */
    void add(FunctionBuilder builder, double scale) {
        int n = builder.size();
        fit(bound(n));
        builder.copyPoints(0, n, vs, size * dim);
        for (int i = 0; i < n; i++) {
            point(scale == 1.0 ? builder.x(i) : builder.x(i) / scale);
        }
        closeChild();
    }

    /**
     * Appends the next child's ramp {@code top * min(1, s / knee)} on {@code [0, 1]} (as
     * {@link PiecewiseLinearFunction#ramp}), its argument divided by {@code scale}, held up to 1.
     */
    void addRamp(double knee, double[] top, double scale) {
        fit(bound(3));
        point(0.0);
        Arrays.fill(vs, (size - 1) * dim, size * dim, 0.0);
        if (knee < 1.0) {
            point(scale == 1.0 ? knee : knee / scale);
            System.arraycopy(top, 0, vs, (size - 1) * dim, dim);
        }
        point(scale == 1.0 ? 1.0 : 1.0 / scale);
        System.arraycopy(top, 0, vs, (size - 1) * dim, dim);
        closeChild();
    }

    /** Makes room for the next child and {@code points} more points. */
    private void fit(int points) {
        if (children + 2 > starts.length) {
            starts = Arrays.copyOf(starts, 2 * (children + 2));
        }
        if (size + points > xs.length) {
            int capacity = Math.max(size + points, 2 * xs.length);
            xs = Arrays.copyOf(xs, capacity);
            vs = Arrays.copyOf(vs, capacity * dim);
        }
    }

    /** Appends an argument; the caller writes its value into the last row. */
    private void point(double x) {
        int first = starts[children];
        if (size == first || xs[size - 1] != x) {
            distinct++;
        }
        xs[size++] = x;
    }

    /** Holds the last value up to 1 where the scaled plot ends before it, and starts the next child. */
    private void closeChild() {
        double last = xs[size - 1];
        if (1.0 > last) {
            System.arraycopy(vs, (size - 1) * dim, vs, size * dim, dim);
            point(1.0);
        }
        starts[++children] = size;
    }

    void leftLimit(int child, double x, double[] out, int offset) {
        PiecewiseLinearFunction.leftLimit(xs, vs, dim, starts[child], starts[child + 1], x, out, offset);
    }

    void rightLimit(int child, double x, double[] out, int offset) {
        PiecewiseLinearFunction.rightLimit(xs, vs, dim, starts[child], starts[child + 1], x, out, offset);
    }
}
