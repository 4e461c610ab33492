package io.grove.core.fairshare.function;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The builder's merging of points, and its two ways of adding one: a value in an array, or in up to five arguments. */
class FunctionBuilderTest {

    @Test
    void addingFromArgumentsMergesAsAddingFromAnArray() {
        for (long seed = 1; seed <= 500; seed++) {
            SplittableRandom random = new SplittableRandom(seed);
            int dim = 1 + random.nextInt(5);
            FunctionBuilder fromArray = new FunctionBuilder(dim, 2);
            FunctionBuilder fromArguments = new FunctionBuilder(dim, 2);
            List<double[]> points = randomPoints(random, dim, 40, false);
            for (int p = 0; p < points.size(); p++) {
                double[] point = points.get(p);
                fromArray.add(point[0], point, 1);
                fromArguments.add(point[0], point[1], lane(point, 2), lane(point, 3), lane(point, 4), lane(point, 5));
                assertEquals(fromArray.size(), fromArguments.size(), "seed " + seed + ", point " + p);
            }
            assertEquals(fromArray.build().toString(), fromArguments.build().toString(), "seed " + seed);
        }
    }

    private static double lane(double[] point, int i) {
        return i < point.length ? point[i] : 0;
    }

    /**
     * Points left to right as {@code [x, v_0 .. v_dim-1]}, at most {@code most}: repeated arguments
     * and values, so that points repeat and pieces line up both ways; the values go up only, or up
     * and down.
     */
    private static List<double[]> randomPoints(SplittableRandom random, int dim, int most, boolean upAndDown) {
        List<double[]> points = new ArrayList<>();
        double[] point = new double[1 + dim];
        int count = 1 + random.nextInt(most);
        for (int p = 0; p < count; p++) {
            if (random.nextInt(3) != 0) {
                point[0] += random.nextInt(3) * 0.25;
            }
            if (random.nextInt(3) != 0) {
                point[1 + random.nextInt(dim)] += (upAndDown ? random.nextInt(5) - 2 : random.nextInt(3)) * 0.5;
            }
            points.add(point.clone());
        }
        return points;
    }

    /**
     * Whatever it merges, the plot built is the polyline of the points added: at every argument
     * its left limit is the first value added there and its right limit the last, between
     * arguments the line between them; and it keeps no repeated point, no three points on one
     * vertical and no three equal values in a row.
     */
    @Test
    void mergingKeepsThePolylineOfThePointsAdded() {
        for (long seed = 1; seed <= 500; seed++) {
            SplittableRandom random = new SplittableRandom(seed);
            int dim = 1 + random.nextInt(3);
            FunctionBuilder builder = new FunctionBuilder(dim, 2);
            // Up and down (the builder takes any values), so that a vertical run can come back.
            List<double[]> added = randomPoints(random, dim, 30, true);
            List<Double> xs = new ArrayList<>();
            List<double[]> values = new ArrayList<>();
            for (double[] point : added) {
                builder.add(point[0], point, 1);
                xs.add(point[0]);
                values.add(Arrays.copyOfRange(point, 1, point.length));
            }
            int points = added.size();
            PiecewiseLinearFunction built = builder.build();
            String where = "seed " + seed + ": " + built;
            double[] actual = new double[dim];
            for (int p = 0; p < points; p++) {
                double at = xs.get(p);
                boolean firstThere = p == 0 || xs.get(p - 1) < at;
                boolean lastThere = p == points - 1 || xs.get(p + 1) > at;
                if (firstThere) {
                    built.leftLimit(at, actual, 0);
                    assertArrayEquals(values.get(p), actual, 0.0, where + ", left of " + at);
                }
                if (lastThere) {
                    built.rightLimit(at, actual, 0);
                    assertArrayEquals(values.get(p), actual, 0.0, where + ", right of " + at);
                    if (p < points - 1) {
                        double middle = (at + xs.get(p + 1)) / 2;
                        double t = (middle - at) / (xs.get(p + 1) - at);
                        double[] expected = new double[dim];
                        for (int c = 0; c < dim; c++) {
                            expected[c] = PiecewiseLinearFunction.lerp(values.get(p)[c], values.get(p + 1)[c], t);
                        }
                        built.leftLimit(middle, actual, 0);
                        assertArrayEquals(expected, actual, 0.0, where + ", at " + middle);
                    }
                }
            }
            for (int i = 1; i < built.size(); i++) {
                boolean sameValue = sameValue(built, i - 1, i);
                assertFalse(built.x(i - 1) == built.x(i) && sameValue, where + ": point " + i + " repeated");
                if (i >= 2) {
                    assertFalse(built.x(i - 2) == built.x(i), where + ": three points on one vertical at " + i);
                    assertFalse(sameValue && sameValue(built, i - 2, i - 1), where + ": three equal values at " + i);
                }
            }
        }
    }

    /**
     * Trimming a final jump and holding the last value to the right in the builder give the
     * function that doing so to the function built gives, bit for bit (a walk finishes its plot
     * in the builder, for a parent to copy its points).
     */
    @Test
    void finishingInTheBuilderIsFinishingTheFunction() {
        for (long seed = 1; seed <= 300; seed++) {
            SplittableRandom random = new SplittableRandom(seed);
            int dim = 1 + random.nextInt(3);
            FunctionBuilder builder = new FunctionBuilder(dim, 2);
            List<double[]> added = randomPoints(random, dim, 6, false);
            for (double[] point : added) {
                builder.add(point[0], point, 1);
            }
            PiecewiseLinearFunction built = builder.build();
            double right = built.rightBound() + (random.nextBoolean() ? 0 : random.nextDouble() - 0.25);
            boolean trim = random.nextBoolean();
            PiecewiseLinearFunction expected = trim ? built.trimRight() : built.extendRight(right);
            if (trim) {
                builder.trimRight();
            } else {
                builder.extendRight(right);
            }
            assertPlotEquals(expected, builder.build(), "seed " + seed + ": " + built);
        }
    }

    private static void assertPlotEquals(PiecewiseLinearFunction expected, PiecewiseLinearFunction actual, String where) {
        assertEquals(expected.size(), actual.size(), where);
        for (int i = 0; i < expected.size(); i++) {
            assertEquals(expected.x(i), actual.x(i), where + ", point " + i);
            for (int c = 0; c < expected.dim(); c++) {
                assertEquals(expected.v(i, c), actual.v(i, c), where + ", point " + i);
            }
        }
    }

    private static boolean sameValue(PiecewiseLinearFunction f, int i, int j) {
        for (int c = 0; c < f.dim(); c++) {
            if (f.v(i, c) != f.v(j, c)) {
                return false;
            }
        }
        return true;
    }

    @Test
    void addingFromArgumentsRefusesToGoLeft() {
        FunctionBuilder builder = new FunctionBuilder(2);
        builder.add(1.0, 0.5, 0.5, 0, 0, 0);
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> builder.add(0.5, 1, 1, 0, 0, 0));
        assertEquals("points must be added left to right: 0.5 after 1.0", error.getMessage());
        assertThrows(IllegalArgumentException.class, () -> builder.add(Double.NaN, 1, 1, 0, 0, 0));
    }
}
