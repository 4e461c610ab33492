package io.grove.core.fairshare.function;

import java.util.SplittableRandom;

/** Random non-decreasing functions with occasional jumps and flats, for seeded tests. */
final class RandomFunctions {

    private RandomFunctions() {
    }

    /**
     * @param points how many points after the first, at most
     * @param maxStep largest step of the argument between points
     * @param maxRise largest rise of a component between points
     * @param unitDomain end exactly at argument 1 (else wherever the steps lead)
     */
    static PiecewiseLinearFunction nonDecreasing(SplittableRandom random, int dim, int points, double maxStep,
            double maxRise, boolean unitDomain) {
        FunctionBuilder b = new FunctionBuilder(dim);
        double[] value = new double[dim];
        double x = 0;
        b.add(0, value, 0);
        int count = 1 + random.nextInt(points);
        for (int i = 0; i < count; i++) {
            boolean last = i == count - 1;
            boolean jump = !last && random.nextInt(4) == 0;
            double step = jump ? 0 : 0.01 + random.nextDouble() * maxStep;
            x = unitDomain ? (last ? 1.0 : Math.min(1.0, x + step)) : x + step;
            for (int c = 0; c < dim; c++) {
                value[c] += random.nextInt(4) == 0 ? 0 : random.nextDouble() * maxRise;
            }
            b.add(x, value.clone(), 0);
        }
        return b.build().trimRight();
    }
}
