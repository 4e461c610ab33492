package io.grove.core.fairshare.function;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
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
            double x = 0;
            double[] value = new double[5];
            int points = 1 + random.nextInt(40);
            for (int p = 0; p < points; p++) {
                // Repeated arguments and values, so that points repeat and pieces line up both ways.
                if (random.nextInt(3) != 0) {
                    x += random.nextInt(3) * 0.25;
                }
                if (random.nextInt(3) != 0) {
                    int c = random.nextInt(dim);
                    value[c] += random.nextInt(3) * 0.5;
                }
                fromArray.add(x, value, 0);
                fromArguments.add(x, value[0], value[1], value[2], value[3], value[4]);
                assertEquals(fromArray.size(), fromArguments.size(), "seed " + seed + ", point " + p);
            }
            assertEquals(fromArray.build().toString(), fromArguments.build().toString(), "seed " + seed);
        }
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
            List<Double> xs = new ArrayList<>();
            List<double[]> values = new ArrayList<>();
            double x = 0;
            double[] value = new double[dim];
            int points = 1 + random.nextInt(30);
            for (int p = 0; p < points; p++) {
                if (random.nextInt(3) != 0) {
                    x += random.nextInt(3) * 0.25;
                }
                if (random.nextInt(3) != 0) {
                    // Up and down (the builder takes any values), so that a vertical run can come back.
                    value[random.nextInt(dim)] += (random.nextInt(5) - 2) * 0.5;
                }
                builder.add(x, value, 0);
                xs.add(x);
                values.add(value.clone());
            }
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
