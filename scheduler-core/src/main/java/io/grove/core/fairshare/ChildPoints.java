package io.grove.core.fairshare;

import io.grove.core.fairshare.function.PiecewiseLinearFunction;
import io.grove.core.fairshare.function.PlotPoints;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A fair-share pool's children's {@code FairShareBySuggestion} functions with their arguments
 * scaled by weight and held up to 1, the plots stored one after another in two arrays: child
 * {@code i} owns points {@code [start(i), start(i + 1))}. The sweep and the distribution read
 * them in place, and an operation that only ramps up to its demand writes its three points here
 * without a function of its own.
 *
 * <p>A child's plot is its function's points with every argument divided by the scale (unless
 * the scale is 1), then, where that ends before 1, one more point at 1 with the last value.
 *
 * <p>One such serves every pool of an update in turn: each pool {@linkplain #begin begins} its
 * set of children after the points of the sets before, has its children walk straight into it,
 * and keeps a {@linkplain #seal sealed} view of its set over the same arrays. When the arrays are
 * full, the next ones are taken and only the set being filled moves; the views keep the old ones.
 * The arrays are kept for the next update ({@link #restart}), whose views are sealed anew.
 */
final class ChildPoints {

    final int dim;
    /** Arguments and values, shared with the sets sealed before. */
    double[] xs;
    double[] vs;
    /** Where each child of the set starts, as indices into {@link #xs}; then where the set ends. */
    private int[] starts;
    private int children;
    /** The end of the points written: the end of the set being filled. */
    private int size;
    /** Distinct arguments over all plots: the number of critical points of the sweep. */
    private int distinct;
    /** Every pair of arrays filled so far, in the order they were taken; {@code null} in a sealed view. */
    private final List<double[][]> arrays;
    /** Which of {@link #arrays} is being filled. */
    private int filling;

    /**
     * @param dim components of each value
     * @param count children
     * @param capacity points over all children, extension points included (more grow the arrays)
     */
    ChildPoints(int dim, int count, int capacity) {
        this.dim = dim;
        this.xs = new double[capacity];
        this.vs = new double[capacity * dim];
        this.starts = new int[count + 1];
        this.arrays = new ArrayList<>();
        arrays.add(new double[][] {xs, vs});
    }

    private ChildPoints(ChildPoints set) {
        this.arrays = null;
        this.dim = set.dim;
        this.xs = set.xs;
        this.vs = set.vs;
        this.starts = Arrays.copyOf(set.starts, set.children + 1);
        this.children = set.children;
        this.size = set.size;
        this.distinct = set.distinct;
    }

    /**
     * Starts over at the beginning of the first arrays, for the next update: no view sealed before
     * may be read any more.
     */
    void restart() {
        filling = 0;
        xs = arrays.get(0)[0];
        vs = arrays.get(0)[1];
        size = 0;
        begin();
    }

    /** Begins a new set of children after the points written so far, which stay as they are. */
    void begin() {
        starts[0] = size;
        children = 0;
        distinct = 0;
    }

    /** The set filled since {@link #begin}, as it is: a view over the same points, which nothing writes again. */
    ChildPoints seal() {
        return new ChildPoints(this);
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

    /**
     * Appends the next child's function (as a function, or as the builder of a walk holds it),
     * its argument divided by {@code scale}, held up to 1.
     */
    void add(PlotPoints f, double scale) {
        int n = f.size();
        fit(bound(n));
        f.copyPoints(0, n, vs, size * dim);
        for (int i = 0; i < n; i++) {
            point(scale == 1.0 ? f.x(i) : f.x(i) / scale);
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

    /**
     * Makes room for the next child and {@code points} more points: where the arrays are full, the
     * set being filled moves to the start of the next ones, at least as large and twice its size
     * (kept from an update before where those are large enough, else new).
     */
    private void fit(int points) {
        if (children + 2 > starts.length) {
            starts = Arrays.copyOf(starts, 2 * (children + 2));
        }
        if (size + points > xs.length) {
            int base = starts[0];
            int filled = size - base;
            int capacity = Math.max(xs.length, 2 * (filled + points));
            filling++;
            if (filling == arrays.size()) {
                arrays.add(null);
            }
            double[][] next = arrays.get(filling);
            if (next == null || next[0].length < capacity) {
                next = new double[][] {new double[capacity], new double[capacity * dim]};
                arrays.set(filling, next);
            }
            double[] newXs = next[0];
            double[] newVs = next[1];
            System.arraycopy(xs, base, newXs, 0, filled);
            System.arraycopy(vs, base * dim, newVs, 0, filled * dim);
            xs = newXs;
            vs = newVs;
            for (int i = 0; i <= children; i++) {
                starts[i] -= base;
            }
            size = filled;
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
