package io.grove.core.schedule;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The tree answers as a pass over the children does, after any sequence of changes. */
class ChildTreeTest {

    private static final int N = SchedulingIndex.N;
    private static final double INACTIVE = Double.POSITIVE_INFINITY;

    @Test
    void answersAsAPassOverTheChildren() {
        for (long seed = 1; seed <= 200; seed++) {
            SplittableRandom random = new SplittableRandom(seed);
            int children = 1 + random.nextInt(40);
            ChildTree tree = new ChildTree(children);
            double[] satisfaction = new double[children];
            int[] count = new int[children];
            double[] jobs = new double[children * N];
            Arrays.fill(satisfaction, INACTIVE);
            Arrays.fill(jobs, INACTIVE);
            for (int c = 0; c < children; c++) {
                tree.setSatisfaction(c, INACTIVE);
                tree.setShape(c, 0, jobs, c * N);
            }
            for (int step = 0; step < 300; step++) {
                int c = random.nextInt(children);
                if (random.nextBoolean()) {
                    // few distinct values, so that ties are common
                    satisfaction[c] = random.nextInt(4) == 0 ? INACTIVE : random.nextInt(5) / 4.0;
                    tree.setSatisfaction(c, satisfaction[c]);
                } else {
                    count[c] = random.nextInt(3);
                    for (int r = 0; r < N; r++) {
                        jobs[c * N + r] = random.nextInt(3) == 0 ? INACTIVE : random.nextInt(8);
                    }
                    tree.setShape(c, count[c], jobs, c * N);
                }
                String where = "seed " + seed + ", step " + step;
                assertEquals(passMin(satisfaction), tree.minSatisfaction(), where);
                assertEquals(passBest(satisfaction, false), tree.leftmostBest(), where);
                assertEquals(passBest(satisfaction, true), tree.leftmostActive(), where);
                assertEquals(Arrays.stream(count).sum(), tree.activeCount(), where);
                double[] min = new double[N];
                tree.copyMinJob(min, 0);
                assertArrayEquals(passMinJob(jobs, children), min, where);
            }
        }
    }

    private static double passMin(double[] values) {
        double best = INACTIVE;
        for (double value : values) {
            best = Math.min(best, value);
        }
        return best;
    }

    /** The index's former pass: the first child strictly better than all before it, or the first active one. */
    private static int passBest(double[] values, boolean fifo) {
        int best = -1;
        double bestValue = INACTIVE;
        for (int c = 0; c < values.length; c++) {
            if (values[c] < bestValue) {
                best = c;
                bestValue = values[c];
                if (fifo) {
                    break;
                }
            }
        }
        return best;
    }

    private static double[] passMinJob(double[] jobs, int children) {
        double[] min = new double[N];
        Arrays.fill(min, INACTIVE);
        for (int c = 0; c < children; c++) {
            for (int r = 0; r < N; r++) {
                min[r] = Math.min(min[r], jobs[c * N + r]);
            }
        }
        return min;
    }
}
