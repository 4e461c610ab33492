package io.grove.core.fairshare;

import static org.junit.jupiter.api.Assertions.fail;

import io.grove.core.resource.ShareVector;

/** Assertions on share vectors with the reference tests' tolerance. */
public final class ShareAssert {

    public static final double TOLERANCE = 1e-7;

    private ShareAssert() {
    }

    public static void assertShare(double[] expected, ShareVector actual, String what) {
        for (int i = 0; i < expected.length; i++) {
            if (Math.abs(expected[i] - actual.get(i)) > TOLERANCE) {
                fail(what + ": expected " + java.util.Arrays.toString(expected) + " but was " + actual);
            }
        }
    }

    /** Unit * x on a cluster without GPU and network: {@code [x, x, 0, x, 0]}. */
    public static double[] unit(double x) {
        return new double[] {x, x, 0, x, 0};
    }

    public static double[] vec(double... values) {
        return values;
    }
}
