package io.grove.core.fairshare;

import io.grove.core.fairshare.function.FunctionBuilder;
import io.grove.core.fairshare.function.PiecewiseLinearFunction;

/**
 * A fair-share pool's {@code FairShareByFitFactor} from its children's scaled
 * {@code FairShareBySuggestion} functions, in one pass: the children's breakpoints are merged in
 * order of the argument and then of the child (a loser tree, {@code O(P log C)}), and every
 * distinct argument of every child's plot becomes one integer fit factor, at which the sum of the
 * children's values is emitted. Children cross their jumps one at a time, so simultaneous jumps
 * (gang operations) can be granted separately.
 */
final class FitFactorSweep {

    /** The argument of the children's functions behind each integer fit factor. */
    final double[] criticalX;
    /** Whose breakpoint each integer fit factor is. */
    final int[] criticalChild;
    final PiecewiseLinearFunction function;

    private FitFactorSweep(double[] criticalX, int[] criticalChild, PiecewiseLinearFunction function) {
        this.criticalX = criticalX;
        this.criticalChild = criticalChild;
        this.function = function;
    }

    /**
     * Sweeps the children's breakpoints, keeping the sum of their values and of their slopes.
     * Between breakpoints every child is linear, so the sum moves by slope times distance. Slopes
     * of nearly vertical pieces are huge and come and go, so their sum is compensated (Neumaier)
     * to keep the small slopes exact.
     */
    static FitFactorSweep run(ChildPoints children, int d, FunctionBuilder builder) {
        int count = children.count();
        int total = children.distinct();
        double[] xs = children.xs;
        double[] vs = children.vs;
        double[] criticalX = new double[total];
        int[] criticalChild = new int[total];
        int[] position = new int[count];
        // The argument each child is at (infinite once it has none left), so that a match reads one array.
        double[] key = new double[count];
        double[] value = new double[d];
        for (int i = 0; i < count; i++) {
            int first = children.start(i);
            position[i] = first;
            key[i] = xs[first];
            for (int c = 0; c < d; c++) {
                value[c] += vs[first * d + c];
            }
        }
        int[] losers = LoserTree.build(key);
        double[] slope = new double[d];
        double[] compensation = new double[d];
        // The slope each child has now, so that leaving a piece costs no second division.
        double[] childSlope = new double[count * d];
        double previousX = 0;
        for (int k = 0; k < total; k++) {
            int index = losers[0];
            int first = position[index];
            int end = children.end(index);
            double x = key[index];
            int last = first;
            while (last + 1 < end && xs[last + 1] == x) {
                last++;
            }
            criticalX[k] = x;
            criticalChild[k] = index;
            position[index] = last + 1;
            key[index] = last + 1 < end ? xs[last + 1] : Double.POSITIVE_INFINITY;
            LoserTree.replay(losers, key, index);

            if (x != previousX) {
                double dx = x - previousX;
                for (int c = 0; c < d; c++) {
                    double moved = value[c] + (slope[c] + compensation[c]) * dx;
                    value[c] = Math.max(value[c], moved);
                }
                previousX = x;
            }
            builder.add(k, value, 0);
            // Only this child crosses its breakpoint here: it may jump, and its slope changes.
            boolean jumps = false;
            if (first != last) {
                for (int c = 0; c < d; c++) {
                    double jump = vs[last * d + c] - vs[first * d + c];
                    if (jump > 0) {
                        value[c] += jump;
                        jumps = true;
                    }
                }
            }
            int base = index * d;
            boolean flat = last + 1 >= end;
            double inverseWidth = flat ? 0 : 1 / (xs[last + 1] - xs[last]);
            for (int c = 0; c < d; c++) {
                double newSlope = flat ? 0 : (vs[(last + 1) * d + c] - vs[last * d + c]) * inverseWidth;
                double change = newSlope - childSlope[base + c];
                if (change != 0) {
                    // Neumaier's compensated sum of the slopes.
                    double s = slope[c];
                    double t = s + change;
                    compensation[c] += Math.abs(s) >= Math.abs(change) ? (s - t) + change : (change - t) + s;
                    slope[c] = t;
                    childSlope[base + c] = newSlope;
                }
            }
            if (jumps) {
                builder.add(k, value, 0);
            }
        }
        return new FitFactorSweep(criticalX, criticalChild, builder.build());
    }
}
