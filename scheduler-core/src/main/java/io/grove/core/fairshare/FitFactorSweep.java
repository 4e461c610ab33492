package io.grove.core.fairshare;

import io.grove.core.fairshare.function.FunctionBuilder;
import io.grove.core.fairshare.function.PiecewiseLinearFunction;
import io.grove.core.resource.ResourceType;
import java.util.Arrays;

/**
 * A fair-share pool's {@code FairShareByFitFactor} from its children's scaled
 * {@code FairShareBySuggestion} functions, in one pass: the children's breakpoints are merged in
 * order of the argument and then of the child (a loser tree, {@code O(P log C)}), and every
 * distinct argument of every child's plot becomes one integer fit factor, at which the sum of the
 * children's values is emitted. Children cross their jumps one at a time, so simultaneous jumps
 * (gang operations) can be granted separately.
 */
final class FitFactorSweep {

    private static final int LANES = ResourceType.COUNT;
    /** Up to this many children, the next breakpoint is found by looking at every child's. */
    static final int SCAN_LIMIT = 16;

    /** The children swept, which the distribution reads at the fit factor it finds. */
    private final ChildPoints children;
    /**
     * The breakpoint behind each integer fit factor, as the index of its first point among the
     * children's points: its argument and whose it is follow from there (one number where two
     * would take half as much again of the update's memory).
     */
    private final int[] criticalPoint;
    final PiecewiseLinearFunction function;

    private FitFactorSweep(ChildPoints children, int[] criticalPoint, PiecewiseLinearFunction function) {
        this.children = children;
        this.criticalPoint = criticalPoint;
        this.function = function;
    }

    /** How many integer fit factors (critical points) there are. */
    int size() {
        return criticalPoint.length;
    }

    /** The argument of the children's functions behind integer fit factor {@code k}. */
    double criticalX(int k) {
        return children.xs[criticalPoint[k]];
    }

    /** Whose breakpoint integer fit factor {@code k} is. */
    int criticalChild(int k) {
        return children.childOf(criticalPoint[k]);
    }

    /**
     * Where fit factor {@code f} (held within the critical points) falls: the children's argument
     * there, and how each child is read at it. At an integer fit factor the children up to its
     * breakpoint's owner have crossed their breakpoints there and the others not; between two
     * integer fit factors at one argument (a jump crossed one child at a time), the children up
     * to the first one's owner have crossed; between two arguments, everyone is read on the line.
     */
    Cut cut(double f) {
        int last = criticalPoint.length - 1;
        double fitFactor = Math.max(0, Math.min(last, f));
        int k = (int) Math.floor(fitFactor);
        double x = criticalX(k);
        if (fitFactor == k) {
            return new Cut(x, criticalChild(k));
        }
        double next = criticalX(k + 1);
        if (next == x) {
            return new Cut(x, criticalChild(k) + 1);
        }
        return new Cut(x + (fitFactor - k) * (next - x), 0);
    }

    /**
     * @param x the children's argument
     * @param firstUncrossed children before it are read on the right of {@code x} (they have crossed
     *     their breakpoint there), the others on the left
     */
    record Cut(double x, int firstUncrossed) {
    }

    /** The packed share of child {@code index} at {@code cut}, into {@code out} at {@code offset}. */
    void shareInto(int index, Cut cut, double[] out, int offset) {
        if (index >= cut.firstUncrossed()) {
            children.leftLimit(index, cut.x(), out, offset);
        } else {
            children.rightLimit(index, cut.x(), out, offset);
        }
    }

    /**
     * Sweeps the children's breakpoints, keeping the sum of their values and of their slopes.
     * Between breakpoints every child is linear, so the sum moves by slope times distance. Slopes
     * of nearly vertical pieces are huge and come and go, so their sum is compensated to keep the
     * small slopes exact.
     *
     * <p>The breakpoints come from a loser tree without branches ({@link LoserTree}): its matches
     * go either way at random, and mispredicted branches would throw away the sums' work with
     * them; without, the sums of one breakpoint overlap the matches of the next. Up to
     * {@link #SCAN_LIMIT} children (most pools), every child's next key is looked at instead
     * ({@link LoserTree#first}): independent comparisons, where the tree's wait for each other,
     * level after level. The sums are kept
     * component by component in local variables (a value has at most {@link ResourceType#COUNT}
     * components; those beyond {@code d} stay zero): in arrays, every breakpoint would wait for
     * the previous one's stores. The working arrays by child are {@code scratch}'s, kept from one
     * sweep to the next.
     */
    static FitFactorSweep run(ChildPoints children, int d, FunctionBuilder builder, Scratch scratch) {
        int total = children.distinct();
        int[] criticalPoint = new int[total];
        int count = children.count();
        double[] xs = children.xs;
        double[] vs = children.vs;
        scratch.fit(count);
        int[] position = scratch.position;
        // Most trees have at most three resources (user slots, CPU, memory): the last two
        // components' work is skipped then, on a branch that always goes the same way.
        boolean wide = d > 3;
        double v0 = 0, v1 = 0, v2 = 0, v3 = 0, v4 = 0;
        for (int i = 0; i < count; i++) {
            int first = children.start(i);
            position[i] = first;
            v0 += lane(vs, first, d, 0);
            v1 += lane(vs, first, d, 1);
            v2 += lane(vs, first, d, 2);
            v3 += lane(vs, first, d, 3);
            v4 += lane(vs, first, d, 4);
        }
        // The sum of the children's slopes and its rounding error, per component.
        double s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0;
        double e0 = 0, e1 = 0, e2 = 0, e3 = 0, e4 = 0;
        // The slope each child has now, so that leaving a piece costs no second division.
        double[] childSlope = scratch.childSlope;
        Arrays.fill(childSlope, 0, count * LANES, 0.0);
        // The points emitted so far: the last one, and whether it continues a horizontal piece
        // (as FunctionBuilder.add knows by reading them back from memory).
        builder.reset();
        double lastX = 0;
        double beforeLastX = 0;
        boolean flatEnd = false;
        double l0 = 0, l1 = 0, l2 = 0, l3 = 0, l4 = 0;
        double previousX = 0;
        // Each child's next argument (never negative: plots start at 0 and go right).
        long[] key = scratch.key;
        for (int i = 0; i < count; i++) {
            key[i] = LoserTree.key(xs[position[i]]);
        }
        int[] losers = scratch.tree;
        // A few children are compared side by side (independent comparisons); many through the
        // tree (a chain of one comparison per level).
        boolean scan = count <= SCAN_LIMIT;
        if (!scan) {
            LoserTree.build(key, count, losers, scratch.winners);
        }
        for (int k = 0; k < total; k++) {
            int index = scan ? LoserTree.first(key, count) : losers[0];
            int first = position[index];
            int end = children.end(index);
            int last = lastOfGroup(xs, first, end);
            double x = xs[first];
            criticalPoint[k] = first;
            position[index] = last + 1;
            key[index] = last + 1 < end ? LoserTree.key(xs[last + 1]) : LoserTree.END;
            if (!scan) {
                LoserTree.replay(losers, key, count, index);
            }
            if (x != previousX) {
                double dx = x - previousX;
                v0 = Math.max(v0, v0 + (s0 + e0) * dx);
                v1 = Math.max(v1, v1 + (s1 + e1) * dx);
                v2 = Math.max(v2, v2 + (s2 + e2) * dx);
                if (wide) {
                    v3 = Math.max(v3, v3 + (s3 + e3) * dx);
                    v4 = Math.max(v4, v4 + (s4 + e4) * dx);
                }
                previousX = x;
            }
            // Emit (k, sum); where this child jumps here, add the jump and emit (k, sum) again.
            // A point like the last two extends their horizontal piece, as FunctionBuilder.add does.
            boolean jumped = false;
            while (true) {
                boolean same = k > 0 && v0 == l0 && v1 == l1 && v2 == l2 && v3 == l3 && v4 == l4;
                if (same && flatEnd && beforeLastX < lastX) {
                    builder.moveLastTo(k);
                } else {
                    builder.append(k, v0, v1, v2, v3, v4);
                    beforeLastX = lastX;
                    flatEnd = same;
                    l0 = v0;
                    l1 = v1;
                    l2 = v2;
                    l3 = v3;
                    l4 = v4;
                }
                lastX = k;
                if (jumped || first == last) {
                    break;
                }
                double j0 = Math.max(0, lane(vs, last, d, 0) - lane(vs, first, d, 0));
                double j1 = Math.max(0, lane(vs, last, d, 1) - lane(vs, first, d, 1));
                double j2 = Math.max(0, lane(vs, last, d, 2) - lane(vs, first, d, 2));
                double j3 = wide ? Math.max(0, lane(vs, last, d, 3) - lane(vs, first, d, 3)) : 0;
                double j4 = wide ? Math.max(0, lane(vs, last, d, 4) - lane(vs, first, d, 4)) : 0;
                if (!(j0 > 0 || j1 > 0 || j2 > 0 || j3 > 0 || j4 > 0)) {
                    break;
                }
                v0 += j0;
                v1 += j1;
                v2 += j2;
                v3 += j3;
                v4 += j4;
                jumped = true;
            }
            // The child's slope changes.
            int slot = index * LANES;
            double n0 = 0, n1 = 0, n2 = 0, n3 = 0, n4 = 0;
            if (last + 1 < end) {
                double inverseWidth = 1 / (xs[last + 1] - xs[last]);
                n0 = (lane(vs, last + 1, d, 0) - lane(vs, last, d, 0)) * inverseWidth;
                n1 = (lane(vs, last + 1, d, 1) - lane(vs, last, d, 1)) * inverseWidth;
                n2 = (lane(vs, last + 1, d, 2) - lane(vs, last, d, 2)) * inverseWidth;
                if (wide) {
                    n3 = (lane(vs, last + 1, d, 3) - lane(vs, last, d, 3)) * inverseWidth;
                    n4 = (lane(vs, last + 1, d, 4) - lane(vs, last, d, 4)) * inverseWidth;
                }
            }
            // Knuth's two-sum: the exact rounding error of each new slope sum, without branches.
            double c0 = n0 - childSlope[slot];
            double c1 = n1 - childSlope[slot + 1];
            double c2 = n2 - childSlope[slot + 2];
            double t0 = s0 + c0;
            double t1 = s1 + c1;
            double t2 = s2 + c2;
            e0 += twoSumError(s0, c0, t0);
            e1 += twoSumError(s1, c1, t1);
            e2 += twoSumError(s2, c2, t2);
            s0 = t0;
            s1 = t1;
            s2 = t2;
            childSlope[slot] = n0;
            childSlope[slot + 1] = n1;
            childSlope[slot + 2] = n2;
            if (wide) {
                double c3 = n3 - childSlope[slot + 3];
                double c4 = n4 - childSlope[slot + 4];
                double t3 = s3 + c3;
                double t4 = s4 + c4;
                e3 += twoSumError(s3, c3, t3);
                e4 += twoSumError(s4, c4, t4);
                s3 = t3;
                s4 = t4;
                childSlope[slot + 3] = n3;
                childSlope[slot + 4] = n4;
            }
        }
        return new FitFactorSweep(children, criticalPoint, builder.build());
    }

    /**
     * The working arrays of a sweep, by child: kept from one sweep to the next (one thread), as a
     * tree's 10,000 pools would otherwise allocate five small arrays each.
     */
    static final class Scratch {
        int[] position = new int[0];
        double[] childSlope = new double[0];
        long[] key = new long[0];
        int[] tree = new int[1];
        int[] winners = new int[0];

        /** Makes room for {@code count} children. */
        void fit(int count) {
            if (position.length < count) {
                int capacity = Math.max(count, 2 * position.length);
                position = new int[capacity];
                childSlope = new double[capacity * LANES];
                key = new long[capacity];
                tree = new int[capacity];
                winners = new int[2 * capacity];
            }
        }
    }

    /** Component {@code c} of point {@code row}; zero beyond the {@code d} components. */
    private static double lane(double[] vs, int row, int d, int c) {
        return c < d ? vs[row * d + c] : 0;
    }

    /** The rounding error of {@code t = a + b}, exactly (Knuth's two-sum). */
    private static double twoSumError(double a, double b, double t) {
        double virtual = t - a;
        return (a - (t - virtual)) + (b - virtual);
    }

    /** The last of the points from {@code first} on that share its argument. */
    private static int lastOfGroup(double[] xs, int first, int end) {
        int last = first;
        while (last + 1 < end && xs[last + 1] == xs[first]) {
            last++;
        }
        return last;
    }
}
