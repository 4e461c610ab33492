package io.grove.core.fairshare.function;

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

        public Walker(int dim, FunctionBuilder builder) {
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
            for (; j < n && fa < end; j++) {
                double fb = byFitFactor.x(j);
                for (int r = 0; r < dim; r++) {
                    b[r] = byFitFactor.v(j, r);
                }
                if (fb == fa) {
                    // A jump of the fit-factor function: held at its bottom until the top is affordable.
                    emit(suggestion(b), a);
                    emit(suggestion(b), b);
                } else {
                    if (fb > end) {
                        double t = (end - fa) / (fb - fa);
                        for (int r = 0; r < dim; r++) {
                            b[r] = PiecewiseLinearFunction.lerp(a[r], b[r], t);
                        }
                        fb = end;
                    }
                    tilted(a, b);
                }
                // b becomes the next piece's start: swap rather than copy.
                double[] done = a;
                a = b;
                b = done;
                fa = fb;
            }
            return finish(a);
        }

        double suggestion(double[] value) {
            double s = 0;
            for (int r = 0; r < dim; r++) {
                s = Math.max(s, value[r] - floor[r]);
            }
            return s;
        }

        void emit(double suggestion, double[] value) {
            double s = Math.max(lastSuggestion, Math.min(1.0, suggestion));
            lastSuggestion = s;
            builder.add(s, value, 0);
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

        PiecewiseLinearFunction finish(double[] last) {
            if (lastSuggestion < 1.0) {
                builder.add(1.0, last, 0);
            }
            PiecewiseLinearFunction result = builder.build();
            if (result.size() == 1) {
                return result.extendRight(1.0);
            }
            return result.trimRight();
        }
    }
}
