package io.grove.core.fairshare.function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The one-pass construction of {@code FairShareBySuggestion} agrees with the reference's
 * per-resource construction (transpose, narrow, pointwise minimum, compose), jumps included.
 */
class SuggestionFunctionsTest {

    static LongStream seeds() {
        return LongStream.range(0, 150);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void agreesWithTheReferenceConstruction(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int dim = 1 + random.nextInt(5);
        PiecewiseLinearFunction fsbff = RandomFunctions.nonDecreasing(random, dim, 10, 1.0, 0.1, false);
        double[] guarantee = new double[dim];
        double[] limits = new double[dim];
        for (int r = 0; r < dim; r++) {
            double top = fsbff.rightValue(r);
            guarantee[r] = random.nextInt(3) == 0 ? 0 : random.nextDouble() * top * 0.8;
            limits[r] = random.nextInt(3) == 0 ? 1e9 : guarantee[r] + random.nextDouble() * top;
        }
        PiecewiseLinearFunction fast = SuggestionFunctions.fairShareBySuggestion(fsbff, guarantee, limits, new FunctionBuilder(dim));
        PiecewiseLinearFunction reference = ReferenceConstruction.fairShareBySuggestion(fsbff, guarantee, limits);
        assertEquals(0.0, fast.leftBound());
        assertEquals(1.0, fast.rightBound());
        for (int i = 0; i <= 400; i++) {
            double s = i / 400.0;
            double[] a = fast.valueAt(s);
            double[] b = reference.valueAt(s);
            for (int r = 0; r < dim; r++) {
                assertEquals(b[r], a[r], 1e-9, "seed " + seed + ", s = " + s + ", resource " + r
                        + "\nfast " + fast + "\nreference " + reference + "\nfsbff " + fsbff);
            }
        }
    }

    @Test
    void aWalkerKeepsNothingOfOneFunctionForTheNext() {
        // One walker over many functions (its vectors and builder reused) gives each the same
        // points, bit for bit, as a walk of its own.
        SplittableRandom random = new SplittableRandom(7);
        int dim = 3;
        SuggestionFunctions.Walker walker = new SuggestionFunctions.Walker(dim, new FunctionBuilder(dim));
        for (int k = 0; k < 200; k++) {
            PiecewiseLinearFunction fsbff = RandomFunctions.nonDecreasing(random, dim, 1 + random.nextInt(12), 1.0,
                    0.1, random.nextBoolean());
            double[] guarantee = new double[dim];
            double[] limits = new double[dim];
            for (int r = 0; r < dim; r++) {
                guarantee[r] = random.nextInt(3) == 0 ? 0 : random.nextDouble() * fsbff.rightValue(r) * 0.8;
                limits[r] = random.nextInt(3) == 0 ? 1e9 : guarantee[r] + random.nextDouble() * fsbff.rightValue(r);
            }
            PiecewiseLinearFunction alone = SuggestionFunctions.fairShareBySuggestion(fsbff, guarantee, limits,
                    new FunctionBuilder(dim));
            PiecewiseLinearFunction reused = walker.fairShareBySuggestion(fsbff, guarantee, limits);
            assertEquals(alone.toString(), reused.toString(), "function " + k);
        }
    }

    /**
     * The steps of an element that runs jobs ({@code beginSteps}, {@code step}, {@code finishSteps})
     * give, bit for bit, what the walk of its fit-factor plot gives: usage covered in equal
     * dominant steps up to 1, then a piece up to the demand, no guarantee, limits at or above the
     * demand. Usage with ties, zeros and values one ulp apart; demand equal to the usage or not.
     */
    @Test
    void stepsGiveWhatTheWalkOfTheirPlotGives() {
        SplittableRandom random = new SplittableRandom(11);
        for (int k = 0; k < 3000; k++) {
            int dim = 1 + random.nextInt(5);
            SuggestionFunctions.Walker walker = new SuggestionFunctions.Walker(dim, new FunctionBuilder(dim));
            double[] pool = {0, 0.01, 0.2, 0.2, Math.nextUp(0.2), 0.35, 0.5, 1.0 / 3, 0.7};
            double[] usage = new double[dim];
            double[] demand = new double[dim];
            double[] limits = new double[dim];
            for (int r = 0; r < dim; r++) {
                usage[r] = random.nextInt(4) == 0 ? pool[random.nextInt(pool.length)] : random.nextDouble() * 0.5;
                demand[r] = random.nextInt(3) == 0 ? usage[r] : usage[r] + random.nextDouble() * 0.5;
                limits[r] = random.nextBoolean() ? demand[r] : demand[r] + random.nextDouble();
            }
            double maxUsage = 0;
            for (double u : usage) {
                maxUsage = Math.max(maxUsage, u);
            }
            if (maxUsage == 0) {
                continue;
            }
            double[] sorted = usage.clone();
            java.util.Arrays.sort(sorted);
            FunctionBuilder plot = new FunctionBuilder(dim).add(0, new double[dim], 0);
            // A walk in between, so that the steps find the walker as a walk leaves it.
            walker.fairShareBySuggestion(RandomFunctions.nonDecreasing(random, dim, 6, 1.0, 0.1, true),
                    new double[dim], limits);
            walker.beginSteps();
            double previous = 0;
            for (double u : sorted) {
                double fitFactor = u / maxUsage;
                if (fitFactor > previous) {
                    double[] value = new double[dim];
                    for (int r = 0; r < dim; r++) {
                        value[r] = Math.min(u, usage[r]);
                    }
                    plot.add(fitFactor, value, 0);
                    walker.step(value);
                    previous = fitFactor;
                }
            }
            walker.finishSteps(demand.clone());
            PiecewiseLinearFunction steps = walker.plot().build();
            PiecewiseLinearFunction byFitFactor = plot.add(1, usage, 0).add(2, demand, 0).build();
            PiecewiseLinearFunction walked = SuggestionFunctions.fairShareBySuggestion(byFitFactor, new double[dim],
                    limits, new FunctionBuilder(dim));
            assertEquals(walked.toString(), steps.toString(), "case " + k + ": usage "
                    + java.util.Arrays.toString(usage) + ", demand " + java.util.Arrays.toString(demand));
        }
    }

    @Test
    void aWalkerRefusesMoreComponentsThanItKeeps() {
        assertThrows(IllegalArgumentException.class, () -> new SuggestionFunctions.Walker(6, new FunctionBuilder(6)));
        assertThrows(IllegalArgumentException.class, () -> new SuggestionFunctions.Walker(0, new FunctionBuilder(1)));
    }

    @Test
    void aWalkerRefusesAFunctionOfAnotherDimension() {
        SuggestionFunctions.Walker walker = new SuggestionFunctions.Walker(2, new FunctionBuilder(2));
        FunctionBuilder b = new FunctionBuilder(1);
        b.add(0, 0).add(1, 1);
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> walker.fairShareBySuggestion(b.build(), new double[] {0}, new double[] {1}));
        assertEquals("a walker of dimension 2 given a function of dimension 1", error.getMessage());
    }

    @Test
    void aGangStepIsAllOrNothing() {
        // 0 up to fit factor 1, then the whole demand 0.6: nothing until the suggestion affords 0.6.
        FunctionBuilder b = new FunctionBuilder(1);
        b.add(0, 0).add(1, 0).add(1, 0.6).add(2, 0.6);
        PiecewiseLinearFunction fsbs = SuggestionFunctions.fairShareBySuggestion(b.build(), new double[] {0}, new double[] {1}, new FunctionBuilder(1));
        assertEquals(0, fsbs.valueAt1(0.3));
        assertEquals(0, fsbs.valueAt1(0.6));
        assertEquals(0.6, fsbs.valueAt1(0.6000001));
        PiecewiseLinearFunction capped = SuggestionFunctions.fairShareBySuggestion(b.build(), new double[] {0}, new double[] {0.5}, new FunctionBuilder(1));
        assertEquals(0, capped.valueAt1(1.0), "a gang that does not fit its limits gets nothing");
    }
}
