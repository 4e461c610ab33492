package io.grove.core.fairshare;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.core.fairshare.function.FunctionBuilder;
import io.grove.core.fairshare.function.PiecewiseLinearFunction;
import io.grove.core.fairshare.function.Plots;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The children's plots side by side are exactly the scaled functions they stand for: the same
 * points bit for bit, and the same left and right limits everywhere as those plots as functions;
 * whether added as functions or from a builder, into room made to size or grown, and read
 * sealed while the next set is written.
 */
class ChildPointsTest {

    private static final int DIM = 3;

    /** One child: a ramp by its knee and top (function {@code null}), or any function; and its scale. */
    private record Child(PiecewiseLinearFunction function, double knee, double[] top, double scale) {

        /** The plot the child should have: arguments divided by the scale (unless 1), then held up to 1. */
        PiecewiseLinearFunction scaled() {
            PiecewiseLinearFunction f = function != null ? function : PiecewiseLinearFunction.ramp(knee, top);
            int n = f.size();
            boolean extend = 1.0 > (scale == 1.0 ? f.x(n - 1) : f.x(n - 1) / scale);
            int size = extend ? n + 1 : n;
            double[] xs = new double[size];
            double[] vs = new double[size * DIM];
            for (int i = 0; i < size; i++) {
                int from = Math.min(i, n - 1);
                xs[i] = i == n ? 1.0 : scale == 1.0 ? f.x(i) : f.x(i) / scale;
                for (int c = 0; c < DIM; c++) {
                    vs[i * DIM + c] = f.v(from, c);
                }
            }
            return Plots.of(DIM, xs, vs);
        }

        /** As a ramp, or a function: the function itself or its points in a builder (as a walk leaves them). */
        void addTo(ChildPoints points, boolean fromBuilder) {
            if (function == null) {
                points.addRamp(knee, top, scale);
            } else if (fromBuilder) {
                FunctionBuilder builder = new FunctionBuilder(DIM, 1);
                for (int p = 0; p < function.size(); p++) {
                    builder.append(function.x(p), function.v(p, 0), function.v(p, 1), function.v(p, 2), 0, 0);
                }
                points.add(builder, scale);
            } else {
                points.add(function, scale);
            }
        }
    }

    @Test
    void plotsAreTheScaledFunctionsBitForBit() {
        for (long seed = 1; seed <= 200; seed++) {
            SplittableRandom random = new SplittableRandom(seed);
            int count = 1 + random.nextInt(8);
            List<Child> children = new ArrayList<>();
            int capacity = 0;
            for (int i = 0; i < count; i++) {
                double scale = random.nextInt(3) == 0 ? 1.0 : 1.0 + 4 * random.nextDouble();
                Child child = random.nextBoolean()
                        ? new Child(null, random.nextInt(4) == 0 ? 1.0 : 0.05 + 0.9 * random.nextDouble(),
                                randomVector(random), scale)
                        : new Child(randomFunction(random), 0, null, scale);
                children.add(child);
                capacity += ChildPoints.bound(child.function == null ? 3 : child.function.size());
            }
            // Made to size, or grown from almost nothing after a set of its own (as the update's
            // one for every pool); read as sealed while the next set is filled (and may move).
            ChildPoints filled;
            if (random.nextBoolean()) {
                filled = new ChildPoints(DIM, count, capacity);
            } else {
                filled = new ChildPoints(DIM, 1, 1);
                children.get(0).addTo(filled, false);
                filled.seal();
                filled.begin();
            }
            int distinct = 0;
            for (Child child : children) {
                child.addTo(filled, random.nextBoolean());
                distinct += distinctArguments(child.scaled());
            }
            ChildPoints points = filled.seal();
            filled.begin();
            for (int i = 0; i < count; i++) {
                new Child(randomFunction(random), 0, null, 1.0).addTo(filled, random.nextBoolean());
            }
            assertEquals(count, points.count());
            assertEquals(distinct, points.distinct(), "seed " + seed);
            for (int i = 0; i < count; i++) {
                PiecewiseLinearFunction f = children.get(i).scaled();
                String where = "seed " + seed + " child " + i;
                assertEquals(f.size(), points.end(i) - points.start(i), where);
                for (int p = 0; p < f.size(); p++) {
                    int at = points.start(i) + p;
                    assertEquals(f.x(p), points.xs[at], where + " point " + p);
                    for (int c = 0; c < DIM; c++) {
                        assertEquals(f.v(p, c), points.vs[at * DIM + c], where + " point " + p);
                    }
                }
                for (int probe = 0; probe < 20; probe++) {
                    double x = probe < f.size() ? f.x(probe) : random.nextDouble() * 1.1 - 0.05;
                    double[] expected = new double[DIM];
                    double[] actual = new double[DIM];
                    f.leftLimit(x, expected, 0);
                    points.leftLimit(i, x, actual, 0);
                    assertArrayEquals(expected, actual, 0.0, "left limit, " + where + " at " + x);
                    f.rightLimit(x, expected, 0);
                    points.rightLimit(i, x, actual, 0);
                    assertArrayEquals(expected, actual, 0.0, "right limit, " + where + " at " + x);
                }
            }
        }
    }

    /**
     * After a restart (the next update) the sets are written into the arrays of the update
     * before, which grew as its sets filled them: no new arrays, and the same plots; and a set
     * larger than the kept arrays hold gets new ones.
     */
    @Test
    void restartWritesTheNextUpdateIntoTheSameArrays() {
        SplittableRandom random = new SplittableRandom(11);
        List<List<Child>> sets = new ArrayList<>();
        for (int s = 0; s < 12; s++) {
            List<Child> set = new ArrayList<>();
            for (int i = 0, count = 1 + random.nextInt(6); i < count; i++) {
                set.add(new Child(randomFunction(random), 0, null, 1.0 + random.nextInt(3)));
            }
            sets.add(set);
        }
        ChildPoints points = new ChildPoints(DIM, 2, 4);
        List<double[]> first = fill(points, sets);
        points.restart();
        List<double[]> second = fill(points, sets);
        assertEquals(first.size(), second.size());
        for (int s = 0; s < first.size(); s++) {
            assertTrue(first.get(s) == second.get(s), "set " + s + " is in other arrays than the update before's");
        }
        assertTrue(first.stream().distinct().count() > 2, "the sets should have filled several arrays");
        // An update with a set larger than any before: it needs arrays larger than those kept.
        List<Child> large = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            large.add(new Child(randomFunction(random), 0, null, 1.0));
        }
        sets.add(1, large);
        points.restart();
        fill(points, sets);
    }

    /** Fills the sets in turn, checks each sealed set against its children, and says which arrays each set lies in. */
    private static List<double[]> fill(ChildPoints points, List<List<Child>> sets) {
        List<double[]> arrays = new ArrayList<>();
        for (List<Child> set : sets) {
            points.begin();
            for (Child child : set) {
                child.addTo(points, false);
            }
            ChildPoints sealed = points.seal();
            for (int i = 0; i < set.size(); i++) {
                PiecewiseLinearFunction f = set.get(i).scaled();
                assertEquals(f.size(), sealed.end(i) - sealed.start(i));
                for (int p = 0; p < f.size(); p++) {
                    assertEquals(f.x(p), sealed.xs[sealed.start(i) + p]);
                    for (int c = 0; c < DIM; c++) {
                        assertEquals(f.v(p, c), sealed.vs[(sealed.start(i) + p) * DIM + c]);
                    }
                }
            }
            arrays.add(sealed.xs);
        }
        return arrays;
    }

    private static int distinctArguments(PiecewiseLinearFunction f) {
        int n = 1;
        for (int p = 1; p < f.size(); p++) {
            if (f.x(p) != f.x(p - 1)) {
                n++;
            }
        }
        return n;
    }

    private static double[] randomVector(SplittableRandom random) {
        double[] v = new double[DIM];
        for (int c = 0; c < DIM; c++) {
            v[c] = random.nextInt(4) == 0 ? 0 : random.nextDouble();
        }
        return v;
    }

    /** A non-decreasing function on {@code [0, b]} with {@code b <= 1}, with jumps and flat pieces. */
    private static PiecewiseLinearFunction randomFunction(SplittableRandom random) {
        FunctionBuilder builder = new FunctionBuilder(DIM);
        double[] value = new double[DIM];
        double x = 0;
        int points = 1 + random.nextInt(8);
        builder.add(0, value, 0);
        for (int p = 0; p < points; p++) {
            int kind = random.nextInt(4);
            if (kind != 0) {
                x = Math.min(1.0, x + random.nextDouble() * 0.3);
            }
            if (kind != 1) {
                for (int c = 0; c < DIM; c++) {
                    value[c] += random.nextInt(3) == 0 ? 0 : random.nextDouble() * 0.2;
                }
            }
            builder.add(x, value, 0);
        }
        return builder.build().trimRight();
    }
}
