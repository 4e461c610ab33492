package io.grove.core.fairshare.function;

import java.util.Arrays;

/**
 * Builds {@code FairShareBySuggestion} from {@code FairShareByFitFactor} in one pass.
 *
 * <p>The reference builds, for every resource {@code r}, the largest fit factor whose share stays
 * within {@code guarantee_r + s} (capped by the limit), takes the minimum over resources
 * ({@code MaxFitFactorBySuggestion}) and composes. Equivalently, walking the fit factor {@code f}
 * along the plot of {@code FairShareByFitFactor}, the suggestion needed to reach {@code f} is
 * {@code s(f) = max(0, max_r(F_r(f) - g_r))}, and {@code FairShareBySuggestion} is the curve
 * {@code (s(f), F(f))} from the largest {@code f} within the guarantees to the largest {@code f}
 * within the limits, held constant up to {@code s = 1}. Where {@code s} stays put while the share
 * grows, the result jumps; as everywhere, it is left-continuous. This is linear in the size of the
 * plot, where the per-resource construction needs several sorted passes.
 */
public final class SuggestionFunctions {

    private SuggestionFunctions() {
    }

    /**
     * @param byFitFactor non-decreasing vector function, trimmed on the right
     * @param guarantee the element's guarantee share (strong plus integral)
     * @param limits the element's limits share
     * @param scratch a builder to reuse; it is reset
     * @return the fair share by suggestion on {@code [0, 1]}
     */
    public static PiecewiseLinearFunction fairShareBySuggestion(PiecewiseLinearFunction byFitFactor,
            double[] guarantee, double[] limits, FunctionBuilder scratch) {
        return new Walker(byFitFactor.dim(), scratch).fairShareBySuggestion(byFitFactor, guarantee, limits);
    }

    /**
     * Builds {@code FairShareBySuggestion} functions of {@code dim} components one after another
     * on one builder, keeping its working vectors from one function to the next (one thread).
     */
    public static final class Walker {
        private final int dim;
        private final FunctionBuilder builder;
        private final double[] limit;
        private final double[] floor;
        private final double[] point;
        private double[] a;
        private double[] b;
        private double lastSuggestion;

        /** The most components a walker keeps in local variables: one per resource type. */
        public static final int MAX_DIM = 5;

        /** @throws IllegalArgumentException unless {@code 1 <= dim <= MAX_DIM} */
        public Walker(int dim, FunctionBuilder builder) {
            if (dim < 1 || dim > MAX_DIM) {
                throw new IllegalArgumentException("a walker takes 1 to " + MAX_DIM + " components, not " + dim);
            }
            this.dim = dim;
            this.builder = builder;
            this.limit = new double[dim];
            this.floor = new double[dim];
            this.point = new double[dim];
            this.a = new double[dim];
            this.b = new double[dim];
        }

        /** As {@link SuggestionFunctions#fairShareBySuggestion}, on this walker's builder, which it resets. */
        public PiecewiseLinearFunction fairShareBySuggestion(PiecewiseLinearFunction byFitFactor, double[] guarantee,
                double[] limits) {
            walk(byFitFactor, guarantee, limits);
            return builder.build();
        }

        /**
         * The walk of {@link #fairShareBySuggestion}, whose function it leaves in the builder
         * ({@link #plot}) instead of building it: for a caller that only copies its points.
         */
        public void walk(PiecewiseLinearFunction byFitFactor, double[] guarantee, double[] limits) {
            if (byFitFactor.dim() != dim) {
                throw new IllegalArgumentException("a walker of dimension " + dim + " given a function of dimension "
                        + byFitFactor.dim());
            }
            builder.reset();
            lastSuggestion = 0;
            for (int r = 0; r < dim; r++) {
                double low = byFitFactor.leftValue(r);
                double high = byFitFactor.rightValue(r);
                limit[r] = Math.min(Math.max(limits[r], low), high);
                floor[r] = Math.min(Math.max(guarantee[r], low), limit[r]);
            }
            double start = byFitFactor.maxArgumentNotAbove(floor);
            double end = byFitFactor.maxArgumentNotAbove(limit);

            byFitFactor.leftLimit(start, a, 0);
            emit(0.0, a);
            // The first piece whose right end is at or after the start, the one leftLimit read.
            int n = byFitFactor.size();
            int j = byFitFactor.leftPieceEnd(start);
            double fa = start;
            // The piece's ends and the floor component by component in local variables (at most
            // five; those beyond dim stay zero, which changes no maximum below): in arrays, every
            // point would go through memory several times over.
            double a0 = lane(a, 0), a1 = lane(a, 1), a2 = lane(a, 2), a3 = lane(a, 3), a4 = lane(a, 4);
            double g0 = lane(floor, 0), g1 = lane(floor, 1), g2 = lane(floor, 2), g3 = lane(floor, 3);
            double g4 = lane(floor, 4);
            for (; j < n && fa < end; j++) {
                double fb = byFitFactor.x(j);
                double b0 = lane(byFitFactor, j, 0), b1 = lane(byFitFactor, j, 1), b2 = lane(byFitFactor, j, 2);
                double b3 = lane(byFitFactor, j, 3), b4 = lane(byFitFactor, j, 4);
                if (fb == fa) {
                    // A jump of the fit-factor function: held at its bottom until the top is affordable.
                    double s = suggestion(b0 - g0, b1 - g1, b2 - g2, b3 - g3, b4 - g4);
                    emit(s, a0, a1, a2, a3, a4);
                    emit(s, b0, b1, b2, b3, b4);
                } else {
                    if (fb > end) {
                        double t = (end - fa) / (fb - fa);
                        b0 = PiecewiseLinearFunction.lerp(a0, b0, t);
                        b1 = PiecewiseLinearFunction.lerp(a1, b1, t);
                        b2 = PiecewiseLinearFunction.lerp(a2, b2, t);
                        b3 = PiecewiseLinearFunction.lerp(a3, b3, t);
                        b4 = PiecewiseLinearFunction.lerp(a4, b4, t);
                        fb = end;
                    }
                    // The suggestion along the piece is the upper envelope of one line per
                    // component, u + t * (b - a) with u = a - floor, and zero. Where one line is
                    // strictly on top at both ends (as tilted computes them), it is on top all
                    // along and there is no bend; anything else (ties, a bend, zero on top) goes
                    // the general way.
                    double u0 = a0 - g0, u1 = a1 - g1, u2 = a2 - g2, u3 = a3 - g3, u4 = a4 - g4;
                    double w0 = u0 + (b0 - a0), w1 = u1 + (b1 - a1), w2 = u2 + (b2 - a2);
                    double w3 = u3 + (b3 - a3), w4 = u4 + (b4 - a4);
                    double topAtStart = suggestion(u0, u1, u2, u3, u4);
                    double topAtEnd = suggestion(w0, w1, w2, w3, w4);
                    int onTopAtEnd = onTop(topAtEnd, w0, w1, w2, w3, w4);
                    if (topAtStart > 0 && topAtEnd > 0 && Integer.bitCount(onTopAtEnd) == 1
                            && onTopAtEnd == onTop(topAtStart, u0, u1, u2, u3, u4)) {
                        emit(suggestion(b0 - g0, b1 - g1, b2 - g2, b3 - g3, b4 - g4), b0, b1, b2, b3, b4);
                    } else {
                        store(a, a0, a1, a2, a3, a4);
                        store(b, b0, b1, b2, b3, b4);
                        tilted(a, b);
                    }
                }
                a0 = b0;
                a1 = b1;
                a2 = b2;
                a3 = b3;
                a4 = b4;
                fa = fb;
            }
            store(a, a0, a1, a2, a3, a4);
            finish(a);
        }

        /** The builder, holding the plot of the last function walked, until the next walk. */
        public FunctionBuilder plot() {
            return builder;
        }

        /**
         * Starts {@code FairShareBySuggestion} of an element without guarantees whose fit-factor
         * function covers its usage in equal dominant steps on {@code [0, 1]} and grows to its
         * demand on {@code [1, 2]}, with limits at or above the demand (an operation that runs
         * jobs): the same function as {@link #fairShareBySuggestion} of that plot, built without
         * the plot. Along the steps the suggestion is the dominant share itself, so that each step
         * is one point ({@link #step}); the piece from usage to demand is walked as any other
         * ({@link #finishSteps}). {@code SuggestionFunctionsTest} checks it against the walk bit for bit.
         */
        public void beginSteps() {
            builder.reset();
            lastSuggestion = 0;
            Arrays.fill(floor, 0.0);
            Arrays.fill(a, 0.0);
            emit(0.0, a);
        }

        /**
         * The next point of the steps: the share at the next distinct fit factor, each component
         * {@code min(usage_r, u)} for the next usage value {@code u}, in increasing order.
         */
        public void step(double[] value) {
            System.arraycopy(value, 0, a, 0, dim);
            emit(suggestion(value), value);
        }

        /**
         * The piece from the last step (the usage) to {@code demand}: the finished function, left
         * in the builder ({@link #plot}).
         */
        public void finishSteps(double[] demand) {
            System.arraycopy(demand, 0, b, 0, dim);
            tilted(a, b);
            finish(b);
        }

        /** Component {@code r} of {@code v}, zero beyond the dimension. */
        private double lane(double[] v, int r) {
            return r < dim ? v[r] : 0;
        }

        private double lane(PiecewiseLinearFunction f, int i, int r) {
            return r < dim ? f.v(i, r) : 0;
        }

        private void store(double[] v, double v0, double v1, double v2, double v3, double v4) {
            v[0] = v0;
            if (dim > 1) {
                v[1] = v1;
            }
            if (dim > 2) {
                v[2] = v2;
            }
            if (dim > 3) {
                v[3] = v3;
            }
            if (dim > 4) {
                v[4] = v4;
            }
        }

        private void emit(double suggestion, double v0, double v1, double v2, double v3, double v4) {
            double s = Math.max(lastSuggestion, Math.min(1.0, suggestion));
            lastSuggestion = s;
            builder.add(s, v0, v1, v2, v3, v4);
        }

        /**
         * {@code max(0, d0, .., d4)}: the suggestion at a point from its {@code value_r - floor_r}
         * (components beyond the dimension are zero and change nothing).
         */
        private double suggestion(double d0, double d1, double d2, double d3, double d4) {
            double s = above(above(above(0.0, d0), d1), d2);
            return dim > 3 ? above(above(s, d3), d4) : s;
        }

        /**
         * {@code Math.max(s, x)} for {@code s} zero or positive and {@code x} not NaN, in one
         * comparison (no NaN or negative zero to tell apart; the values are finite shares).
         */
        private static double above(double s, double x) {
            return x > s ? x : s;
        }

        /** The components equal to {@code max}, one bit each. */
        private int onTop(double max, double d0, double d1, double d2, double d3, double d4) {
            int bits = (d0 == max ? 1 : 0) | (d1 == max ? 2 : 0) | (d2 == max ? 4 : 0);
            return dim > 3 ? bits | (d3 == max ? 8 : 0) | (d4 == max ? 16 : 0) : bits;
        }

        double suggestion(double[] value) {
            double s = 0;
            for (int r = 0; r < dim; r++) {
                s = Math.max(s, value[r] - floor[r]);
            }
            return s;
        }

        void emit(double suggestion, double[] value) {
            emit(suggestion, lane(value, 0), lane(value, 1), lane(value, 2), lane(value, 3), lane(value, 4));
        }

        /**
         * A tilted piece from {@code a} to {@code b}: the suggestion along it is the upper envelope
         * of one line per resource and zero, with a point wherever the envelope bends.
         */
        void tilted(double[] a, double[] b) {
            // The line on top at each end (the largest value, ties to the steepest; -1, the zero
            // line, where no line is above zero) and the suggestion at b, in one pass.
            int current = -1;
            double value0 = 0;
            double slope0 = 0;
            int atEnd = -1;
            double value1 = 0;
            double slope1 = 0;
            double suggestionB = 0;
            for (int r = 0; r < dim; r++) {
                double base = a[r] - floor[r];
                double m = b[r] - a[r];
                double v0 = base + 0.0 * m;
                if (v0 > value0 || (v0 == value0 && m > slope0)) {
                    current = r;
                    value0 = v0;
                    slope0 = m;
                }
                double v1 = base + 1.0 * m;
                if (v1 > value1 || (v1 == value1 && m > slope1)) {
                    atEnd = r;
                    value1 = v1;
                    slope1 = m;
                }
                suggestionB = Math.max(suggestionB, b[r] - floor[r]);
            }
            if (current == atEnd) {
                // The same line is on top at both ends, hence all along: no bend.
                emit(suggestionB, b);
                return;
            }
            double t = 0;
            while (true) {
                double next = 1;
                int nextLine = -1;
                double currentSlope = slope(a, b, current);
                double currentBase = base(a, current);
                for (int r = -1; r < dim; r++) {
                    double m = slope(a, b, r);
                    if (m <= currentSlope) {
                        continue;
                    }
                    double crossing = (currentBase - base(a, r)) / (m - currentSlope);
                    if (crossing > t && (crossing < next || (crossing == next && nextLine >= 0 && m > slope(a, b, nextLine)))) {
                        next = crossing;
                        nextLine = r;
                    }
                }
                if (nextLine < 0 || next >= 1) {
                    break;
                }
                for (int r = 0; r < dim; r++) {
                    point[r] = PiecewiseLinearFunction.lerp(a[r], b[r], next);
                }
                emit(suggestion(point), point);
                t = next;
                current = nextLine;
            }
            emit(suggestionB, b);
        }

        /** Line {@code -1} is the constant zero. */
        private double base(double[] a, int r) {
            return r < 0 ? 0 : a[r] - floor[r];
        }

        private static double slope(double[] a, double[] b, int r) {
            return r < 0 ? 0 : b[r] - a[r];
        }

        /** Holds the last value up to suggestion 1, and drops a final jump (trimmed on the right). */
        private void finish(double[] last) {
            if (lastSuggestion < 1.0) {
                builder.add(1.0, last, 0);
            }
            if (builder.size() == 1) {
                builder.extendRight(1.0);
            } else {
                builder.trimRight();
            }
        }
    }
}
