package io.grove.core.fairshare.function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The builder's two ways of adding a point: a value in an array, or in up to five arguments. */
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
