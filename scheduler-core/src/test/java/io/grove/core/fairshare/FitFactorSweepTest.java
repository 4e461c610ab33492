package io.grove.core.fairshare;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.grove.core.fairshare.function.FunctionBuilder;
import io.grove.core.fairshare.function.PiecewiseLinearFunction;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The sweep against a plain statement of it, bit for bit: breakpoints taken one at a time by
 * searching every child for the smallest argument (then the smallest child), and the sums kept
 * in arrays with Neumaier's compensation, as the sweep was first written. Over every number of
 * components, with jumps at shared arguments, flat pieces and scaled plots.
 */
class FitFactorSweepTest {

    @Test
    void sweepsAsThePlainStatementBitForBit() {
        // Every other sweep reuses one scratch, left by sweeps of other sizes, as an update's pools do.
        FitFactorSweep.Scratch shared = new FitFactorSweep.Scratch();
        for (long seed = 1; seed <= 400; seed++) {
            SplittableRandom random = new SplittableRandom(seed);
            int d = 1 + random.nextInt(5);
            int count = 1 + random.nextInt(random.nextBoolean() ? 4 : 40);
            PiecewiseLinearFunction[] functions = new PiecewiseLinearFunction[count];
            double[] scales = new double[count];
            int capacity = 0;
            for (int i = 0; i < count; i++) {
                functions[i] = randomFunction(random, d);
                scales[i] = random.nextInt(3) == 0 ? 1.0 : 1.0 + random.nextInt(4) * 0.5 + random.nextDouble();
                capacity += ChildPoints.bound(functions[i].size());
            }
            ChildPoints points = new ChildPoints(d, count, capacity);
            for (int i = 0; i < count; i++) {
                points.add(functions[i], scales[i]);
            }
            FitFactorSweep.Scratch scratch = seed % 2 == 0 ? new FitFactorSweep.Scratch() : shared;
            FitFactorSweep sweep = FitFactorSweep.run(points, d, new FunctionBuilder(d), scratch);
            Plain plain = Plain.sweep(points, d);
            String where = "seed " + seed + ", " + d + " components, " + count + " children";
            assertEquals(plain.criticalX.length, sweep.size(), where);
            for (int k = 0; k < sweep.size(); k++) {
                assertEquals(plain.criticalX[k], sweep.criticalX(k), where + ", critical point " + k);
                assertEquals(plain.criticalChild[k], sweep.criticalChild(k), where + ", critical point " + k);
            }
            assertEquals(plain.function.size(), sweep.function.size(), where);
            for (int p = 0; p < plain.function.size(); p++) {
                assertEquals(plain.function.x(p), sweep.function.x(p), where + ", point " + p);
                for (int c = 0; c < d; c++) {
                    assertEquals(plain.function.v(p, c), sweep.function.v(p, c), where + ", point " + p);
                }
            }
        }
    }

    @Test
    void theLoserTreeOrdersByKeyThenRun() {
        // Sweeps of up to FitFactorSweep.SCAN_LIMIT children look at every key instead (first).
        for (long seed = 1; seed <= 200; seed++) {
            SplittableRandom random = new SplittableRandom(seed);
            int runs = 1 + random.nextInt(30);
            int[][] keys = new int[runs][];
            int[] at = new int[runs];
            long[] key = new long[runs];
            int total = 0;
            for (int i = 0; i < runs; i++) {
                keys[i] = random.ints(random.nextInt(6), 0, 8).sorted().toArray();
                total += keys[i].length;
                key[i] = keys[i].length > 0 ? LoserTree.key(keys[i][0] / 8.0) : LoserTree.END;
            }
            int[] tree = new int[Math.max(1, runs)];
            LoserTree.build(key, runs, tree, new int[2 * runs]);
            for (int popped = 0; popped < total; popped++) {
                int best = -1;
                for (int i = 0; i < runs; i++) {
                    if (at[i] < keys[i].length && (best < 0 || keys[i][at[i]] < keys[best][at[best]])) {
                        best = i;
                    }
                }
                assertEquals(best, tree[0], "seed " + seed + ", pop " + popped);
                assertEquals(best, LoserTree.first(key, runs), "seed " + seed + ", pop " + popped + ", by looking at all");
                at[best]++;
                key[best] = at[best] < keys[best].length ? LoserTree.key(keys[best][at[best]] / 8.0) : LoserTree.END;
                LoserTree.replay(tree, key, runs, best);
            }
        }
    }

    /** A non-decreasing function on {@code [0, b]}, {@code b <= 1}: arguments on a coarse grid, so children share them. */
    private static PiecewiseLinearFunction randomFunction(SplittableRandom random, int d) {
        FunctionBuilder builder = new FunctionBuilder(d);
        double[] value = new double[d];
        double x = 0;
        builder.add(0, value, 0);
        int points = 1 + random.nextInt(8);
        for (int p = 0; p < points; p++) {
            int kind = random.nextInt(4);
            if (kind != 0) {
                x = Math.min(1.0, x + (random.nextBoolean() ? random.nextInt(1, 4) / 8.0 : random.nextDouble() * 0.3));
            }
            if (kind != 1) {
                for (int c = 0; c < d; c++) {
                    value[c] += random.nextInt(3) == 0 ? 0 : random.nextDouble() * 0.2;
                }
            }
            builder.add(x, value, 0);
        }
        return builder.build().trimRight();
    }

    /** The sweep as first written: a search per breakpoint and the sums in arrays. */
    private record Plain(double[] criticalX, int[] criticalChild, PiecewiseLinearFunction function) {

        static Plain sweep(ChildPoints children, int d) {
            int count = children.count();
            int total = children.distinct();
            double[] xs = children.xs;
            double[] vs = children.vs;
            double[] criticalX = new double[total];
            int[] criticalChild = new int[total];
            int[] position = new int[count];
            double[] value = new double[d];
            for (int i = 0; i < count; i++) {
                position[i] = children.start(i);
                for (int c = 0; c < d; c++) {
                    value[c] += vs[position[i] * d + c];
                }
            }
            FunctionBuilder builder = new FunctionBuilder(d);
            double[] slope = new double[d];
            double[] compensation = new double[d];
            double[] childSlope = new double[count * d];
            double previousX = 0;
            for (int k = 0; k < total; k++) {
                int index = -1;
                for (int i = 0; i < count; i++) {
                    if (position[i] < children.end(i) && (index < 0 || xs[position[i]] < xs[position[index]])) {
                        index = i;
                    }
                }
                int first = position[index];
                int end = children.end(index);
                double x = xs[first];
                int last = first;
                while (last + 1 < end && xs[last + 1] == x) {
                    last++;
                }
                criticalX[k] = x;
                criticalChild[k] = index;
                position[index] = last + 1;
                if (x != previousX) {
                    for (int c = 0; c < d; c++) {
                        value[c] = Math.max(value[c], value[c] + (slope[c] + compensation[c]) * (x - previousX));
                    }
                    previousX = x;
                }
                builder.add(k, value, 0);
                boolean jumps = false;
                for (int c = 0; c < d && first != last; c++) {
                    double jump = vs[last * d + c] - vs[first * d + c];
                    if (jump > 0) {
                        value[c] += jump;
                        jumps = true;
                    }
                }
                boolean flat = last + 1 >= end;
                for (int c = 0; c < d; c++) {
                    double newSlope = flat ? 0
                            : (vs[(last + 1) * d + c] - vs[last * d + c]) * (1 / (xs[last + 1] - xs[last]));
                    double change = newSlope - childSlope[index * d + c];
                    if (change != 0) {
                        double s = slope[c];
                        double t = s + change;
                        compensation[c] += Math.abs(s) >= Math.abs(change) ? (s - t) + change : (change - t) + s;
                        slope[c] = t;
                        childSlope[index * d + c] = newSlope;
                    }
                }
                if (jumps) {
                    builder.add(k, value, 0);
                }
            }
            return new Plain(criticalX, criticalChild, builder.build());
        }
    }
}
