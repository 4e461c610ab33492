package io.grove.core.fairshare.function;

import java.util.Arrays;

/**
 * Builds a {@link PiecewiseLinearFunction} point by point, left to right. Repeated points are
 * dropped, and consecutive vertical or consecutive horizontal pieces are merged, so that a plot has
 * no redundant points of those kinds.
 */
public final class FunctionBuilder implements PlotPoints {

    private final int dim;
    private double[] xs;
    private double[] vs;
    private int n;

    public FunctionBuilder(int dim) {
        this(dim, 8);
    }

    public FunctionBuilder(int dim, int expectedPoints) {
        if (dim < 1) {
            throw new IllegalArgumentException("dimension must be positive, got " + dim);
        }
        this.dim = dim;
        int capacity = Math.max(2, expectedPoints);
        this.xs = new double[capacity];
        this.vs = new double[capacity * dim];
    }

    /** How many points it holds before its arrays grow. */
    public int capacity() {
        return xs.length;
    }

    @Override
    public int size() {
        return n;
    }

    @Override
    public double x(int i) {
        return xs[i];
    }

    @Override
    public void copyPoints(int from, int count, double[] out, int offset) {
        System.arraycopy(vs, from * dim, out, offset, count * dim);
    }

    /**
     * Holds the last value up to {@code x} where the plot ends before it, as
     * {@link PiecewiseLinearFunction#extendRight} does to the function built.
     */
    public void extendRight(double x) {
        if (x > xs[n - 1]) {
            int last = (n - 1) * dim;
            add(x, vs[last], lane(vs, last, 1), lane(vs, last, 2), lane(vs, last, 3), lane(vs, last, 4));
        }
    }

    /**
     * Drops the last point where it ends a vertical piece (a final jump), as
     * {@link PiecewiseLinearFunction#trimRight} does to the function built.
     */
    public void trimRight() {
        if (n >= 2 && xs[n - 2] == xs[n - 1]) {
            n--;
        }
    }

    /** Forgets all points, keeping the capacity, so that one builder serves many functions. */
    public FunctionBuilder reset() {
        n = 0;
        return this;
    }

    /** Adds a point of a scalar function. */
    public FunctionBuilder add(double x, double value) {
        if (dim != 1) {
            throw new IllegalStateException("scalar point added to a function of dimension " + dim);
        }
        add(x, value, 0, 0, 0, 0);
        return this;
    }

    /**
     * Appends a point whose value is the first {@code dim} of {@code v0 .. v4} ({@code dim} is the
     * builder's), with none of {@link #add}'s checks or merging: for a caller that keeps a value's
     * components in local variables and drops redundant points itself.
     */
    public void append(double x, double v0, double v1, double v2, double v3, double v4) {
        if (n == xs.length) {
            grow();
        }
        xs[n] = x;
        setRow(n, v0, v1, v2, v3, v4);
        n++;
    }

    /** Moves the last point to argument {@code x}, extending the piece that ends there. */
    public void moveLastTo(double x) {
        xs[n - 1] = x;
    }

    /** Adds a point whose value is {@code values[offset .. offset + dim)}. */
    public FunctionBuilder add(double x, double[] values, int offset) {
        add(x, values[offset], lane(values, offset, 1), lane(values, offset, 2), lane(values, offset, 3),
                lane(values, offset, 4));
        return this;
    }

    /** Component {@code c} of the value at {@code values[offset ..]}; zero beyond the dimension. */
    private double lane(double[] values, int offset, int c) {
        return c < dim ? values[offset + c] : 0;
    }

    /**
     * Adds a point whose value is the first {@code dim} of {@code v0 .. v4}, merging as the class
     * says: for a caller that keeps a value's components in local variables, so that they need not
     * go through memory to be compared and copied.
     */
    public void add(double x, double v0, double v1, double v2, double v3, double v4) {
        if (n > 0) {
            double lastX = xs[n - 1];
            if (!(x >= lastX)) {
                throw new IllegalArgumentException(Double.isNaN(x) ? "argument is NaN"
                        : "points must be added left to right: " + x + " after " + lastX);
            }
            boolean sameValue = equalsRow(n - 1, v0, v1, v2, v3, v4);
            if (x == lastX && sameValue) {
                return;
            }
            if (n >= 2) {
                double prevX = xs[n - 2];
                if (prevX == lastX && lastX == x) {
                    // Two vertical pieces in a row: extend the first one.
                    setRow(n - 1, v0, v1, v2, v3, v4);
                    if (samePointValues(n - 2, n - 1)) {
                        n--;
                    }
                    return;
                }
                if (prevX < lastX && lastX < x && sameValue && samePointValues(n - 2, n - 1)) {
                    // Two horizontal pieces in a row: extend the first one.
                    xs[n - 1] = x;
                    return;
                }
            }
        } else if (Double.isNaN(x)) {
            throw new IllegalArgumentException("argument is NaN");
        }
        append(x, v0, v1, v2, v3, v4);
    }

    private boolean equalsRow(int row, double v0, double v1, double v2, double v3, double v4) {
        int base = row * dim;
        return vs[base] == v0 && (dim < 2 || vs[base + 1] == v1) && (dim < 3 || vs[base + 2] == v2)
                && (dim < 4 || vs[base + 3] == v3) && (dim < 5 || vs[base + 4] == v4);
    }

    private void setRow(int row, double v0, double v1, double v2, double v3, double v4) {
        int base = row * dim;
        vs[base] = v0;
        if (dim > 1) {
            vs[base + 1] = v1;
        }
        if (dim > 2) {
            vs[base + 2] = v2;
        }
        if (dim > 3) {
            vs[base + 3] = v3;
        }
        if (dim > 4) {
            vs[base + 4] = v4;
        }
    }

    private boolean samePointValues(int i, int j) {
        for (int c = 0; c < dim; c++) {
            if (vs[i * dim + c] != vs[j * dim + c]) {
                return false;
            }
        }
        return true;
    }

    private void grow() {
        int capacity = xs.length * 2;
        xs = Arrays.copyOf(xs, capacity);
        vs = Arrays.copyOf(vs, capacity * dim);
    }

    public PiecewiseLinearFunction build() {
        if (n == 0) {
            throw new IllegalStateException("a function needs at least one point");
        }
        return new PiecewiseLinearFunction(dim, Arrays.copyOf(xs, n), Arrays.copyOf(vs, n * dim));
    }
}
