package io.grove.core.fairshare.function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;
import org.junit.jupiter.api.Test;

class PiecewiseLinearFunctionTest {

    private static PiecewiseLinearFunction scalar(double... xy) {
        FunctionBuilder b = new FunctionBuilder(1);
        for (int i = 0; i < xy.length; i += 2) {
            b.add(xy[i], xy[i + 1]);
        }
        return b.build();
    }

    /** A step: 0 up to 1, then 5 (left-continuous). */
    private static final PiecewiseLinearFunction STEP = scalar(0, 0, 1, 0, 1, 5, 2, 5);

    @Test
    void jumpsAreLeftContinuous() {
        assertEquals(0, STEP.valueAt1(1.0));
        double[] out = new double[1];
        STEP.rightLimit(1.0, out, 0);
        assertEquals(5, out[0]);
        assertEquals(5, STEP.valueAt1(1.0000001));
        assertEquals(0, STEP.valueAt1(0.5));
    }

    @Test
    void builderMergesCollinearPieces() {
        PiecewiseLinearFunction f = scalar(0, 1, 1, 1, 2, 1, 2, 1, 2, 3, 2, 4);
        assertEquals(3, f.size(), f.toString());
        assertEquals(1, f.valueAt1(2));
    }

    @Test
    void transposeTurnsFlatsIntoJumps() {
        PiecewiseLinearFunction inverse = ReferenceConstruction.transpose(STEP);
        assertEquals(0, inverse.leftBound());
        assertEquals(5, inverse.rightBound());
        assertEquals(0, inverse.valueAt1(0));
        assertEquals(1, inverse.valueAt1(2.5));
        assertThrows(IllegalStateException.class, () -> ReferenceConstruction.transpose(scalar(0, 1, 1, 0)));
    }

    @Test
    void narrowKeepsJumpsAtTheNewBoundsAndTrimRemovesThem() {
        PiecewiseLinearFunction inverse = ReferenceConstruction.transpose(STEP);
        PiecewiseLinearFunction narrowed = ReferenceConstruction.narrow(inverse, 0, 5);
        assertEquals(0, narrowed.valueAt1(0), "the jump at the left bound is kept: the value is its bottom");
        PiecewiseLinearFunction trimmed = ReferenceConstruction.trimLeft(narrowed);
        assertEquals(1, trimmed.valueAt1(0));
        assertTrue(trimmed.isTrimmedLeft());
    }

    @Test
    void pointwiseMinAddsCrossings() {
        PiecewiseLinearFunction rising = scalar(0, 0, 1, 1);
        PiecewiseLinearFunction falling = scalar(0, 1, 1, 0);
        PiecewiseLinearFunction min = ReferenceConstruction.pointwiseMin(rising, falling);
        assertEquals(0.5, min.valueAt1(0.5), 1e-15);
        assertEquals(0.25, min.valueAt1(0.25), 1e-15);
        assertEquals(0.25, min.valueAt1(0.75), 1e-15);
    }

    @Test
    void composeThroughAJump() {
        // inner jumps from 0.5 to 1.5 at x = 1; outer is the identity on [0, 2].
        PiecewiseLinearFunction inner = scalar(0, 0, 1, 0.5, 1, 1.5, 2, 2);
        PiecewiseLinearFunction outer = scalar(0, 0, 2, 2);
        PiecewiseLinearFunction composed = ReferenceConstruction.compose(outer, inner);
        assertEquals(0.5, composed.valueAt1(1), 1e-15);
        assertEquals(0.25, composed.valueAt1(0.5), 1e-15);
        assertEquals(1.75, composed.valueAt1(1.5), 1e-15);
        // Outer with a jump at 1 inside inner's tilted piece: composed jumps where inner reaches 1.
        PiecewiseLinearFunction composed2 = ReferenceConstruction.compose(STEP, scalar(0, 0, 1, 2));
        assertEquals(0, composed2.valueAt1(0.5));
        assertEquals(5, composed2.valueAt1(0.5000001));
    }

    @RepeatedTest(20)
    void sumAndCompositionAgreeWithPointwiseEvaluation(RepetitionInfo info) {
        SplittableRandom random = new SplittableRandom(info.getCurrentRepetition());
        PiecewiseLinearFunction f = RandomFunctions.nonDecreasing(random, 3, 9, 0.3, 1.0, true);
        PiecewiseLinearFunction g = RandomFunctions.nonDecreasing(random, 3, 9, 0.3, 1.0, true);
        PiecewiseLinearFunction sum = ReferenceConstruction.sum(List.of(f, g));
        PiecewiseLinearFunction inner = RandomFunctions.nonDecreasing(random, 1, 9, 0.3, 1.0, true);
        double scale = f.rightBound() / inner.rightValue(0);
        PiecewiseLinearFunction innerScaled = scaleValues(inner, scale * 0.999);
        PiecewiseLinearFunction composed = ReferenceConstruction.compose(f, innerScaled);
        for (int i = 0; i <= 200; i++) {
            double x = i / 200.0;
            double[] a = f.valueAt(x);
            double[] b = g.valueAt(x);
            double[] s = sum.valueAt(x);
            for (int c = 0; c < 3; c++) {
                assertEquals(a[c] + b[c], s[c], 1e-12, "sum at " + x);
            }
            double[] viaInner = f.valueAt(innerScaled.valueAt1(x));
            double[] direct = composed.valueAt(x);
            for (int c = 0; c < 3; c++) {
                assertEquals(viaInner[c], direct[c], 1e-9, "composition at " + x);
            }
        }
    }

    private static PiecewiseLinearFunction scaleValues(PiecewiseLinearFunction f, double scale) {
        FunctionBuilder b = new FunctionBuilder(1);
        for (int i = 0; i < f.size(); i++) {
            b.add(f.x(i), f.v(i, 0) * scale);
        }
        return b.build();
    }

    /**
     * {@code maxArgumentNotAbove} against a plain statement of it (the last point within the
     * target found point by point, then the same interpolation), bit for bit, on random
     * non-decreasing functions with flats and jumps, for targets below, at and between their
     * values and beyond both ends.
     */
    @Test
    void maxArgumentNotAboveAsThePlainStatement() {
        SplittableRandom random = new SplittableRandom(3);
        for (int k = 0; k < 2000; k++) {
            int dim = 1 + random.nextInt(3);
            PiecewiseLinearFunction f = RandomFunctions.nonDecreasing(random, dim, 1 + random.nextInt(12), 1.0, 0.1,
                    random.nextBoolean());
            double[] target = new double[dim];
            for (int c = 0; c < dim; c++) {
                int point = random.nextInt(f.size());
                target[c] = switch (random.nextInt(4)) {
                    case 0 -> f.v(point, c);
                    case 1 -> f.v(point, c) + random.nextDouble() * 0.05;
                    case 2 -> f.rightValue(c) + random.nextDouble();
                    default -> f.leftValue(c);
                };
            }
            double expected = f.rightBound();
            for (int c = 0; c < dim; c++) {
                expected = Math.min(expected, plainMaxArgumentNotAbove(f, c, target[c]));
            }
            assertEquals(expected, f.maxArgumentNotAbove(target), "case " + k + ": " + f);
        }
    }

    private static double plainMaxArgumentNotAbove(PiecewiseLinearFunction f, int c, double target) {
        if (f.v(0, c) > target) {
            return f.x(0);
        }
        int p = 0;
        while (p + 1 < f.size() && f.v(p + 1, c) <= target) {
            p++;
        }
        if (p == f.size() - 1 || f.x(p) == f.x(p + 1)) {
            return f.x(p);
        }
        double x0 = f.x(p);
        double x1 = f.x(p + 1);
        double v0 = f.v(p, c);
        double x = x0 + (target - v0) / (f.v(p + 1, c) - v0) * (x1 - x0);
        return Math.max(x0, Math.min(x1, x));
    }

    /** {@code leftPieceEnd} against a scan point by point, at, between and beyond the plot's arguments. */
    @Test
    void leftPieceEndAsAScan() {
        SplittableRandom random = new SplittableRandom(4);
        for (int k = 0; k < 2000; k++) {
            PiecewiseLinearFunction f = RandomFunctions.nonDecreasing(random, 1, 1 + random.nextInt(12), 1.0, 0.1,
                    random.nextBoolean());
            int point = random.nextInt(f.size());
            double x = switch (random.nextInt(4)) {
                case 0 -> f.x(point);
                case 1 -> f.x(point) + random.nextDouble() * 0.1;
                case 2 -> f.rightBound() + random.nextDouble();
                default -> f.leftBound() - random.nextDouble();
            };
            int expected = 1;
            while (expected < f.size() - 1 && f.x(expected) < x) {
                expected++;
            }
            assertEquals(expected, f.leftPieceEnd(x), "case " + k + " at " + x + ": " + f);
        }
    }
}
