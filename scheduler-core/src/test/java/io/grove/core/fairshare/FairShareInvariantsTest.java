package io.grove.core.fairshare;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.resource.ResourceType;
import io.grove.core.resource.ShareVector;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Seeded random trees and demands; after each update the invariants of the fair share must hold.
 * A failing seed is in the test name and replays exactly.
 */
class FairShareInvariantsTest {

    private static final double EPS = 1e-6;

    static LongStream seeds() {
        return LongStream.range(0, 60);
    }

    private static FairShareInput input(long seed) {
        SplittableRandom random = new SplittableRandom(seed * 7919 + 1);
        int pools = 5 + random.nextInt(120);
        int ops = 1 + random.nextInt(400);
        int depth = 1 + random.nextInt(4);
        return TreeGenerator.generate(seed, new TreeGenerator.Shape(pools, ops, depth, false));
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void childrenSumToTheirParent(long seed) {
        FairShareResult result = FairShareUpdate.run(input(seed));
        Map<String, double[]> sums = new HashMap<>();
        for (ElementShares e : result.elements().values()) {
            if (e.parent() != null) {
                add(sums.computeIfAbsent(e.parent(), k -> new double[5]), e.fairShare().total());
            }
        }
        for (Map.Entry<String, double[]> entry : sums.entrySet()) {
            ShareVector parent = result.element(entry.getKey()).fairShare().total();
            for (int r = 0; r < 5; r++) {
                if (Math.abs(parent.get(r) - entry.getValue()[r]) > EPS) {
                    fail("seed " + seed + ": children of " + entry.getKey() + " sum to " + java.util.Arrays.toString(entry.getValue())
                            + " but its fair share is " + parent);
                }
            }
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void fairShareStaysWithinDemandAndLimits(long seed) {
        FairShareResult result = FairShareUpdate.run(input(seed));
        for (ElementShares e : result.elements().values()) {
            ShareVector fs = e.fairShare().total();
            for (int r = 0; r < 5; r++) {
                if (fs.get(r) > e.demandShare().get(r) + EPS) {
                    fail("seed " + seed + ": " + e.id() + " gets " + fs + " above its demand " + e.demandShare());
                }
                if (fs.get(r) > e.limitsShare().get(r) + EPS) {
                    fail("seed " + seed + ": " + e.id() + " gets " + fs + " above its limits " + e.limitsShare());
                }
            }
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void strongGuaranteesAreMetWhenDemandCoversThem(long seed) {
        FairShareResult result = FairShareUpdate.run(input(seed));
        for (ElementShares e : result.elements().values()) {
            ShareVector guarantee = e.strongGuaranteeShare();
            if (e.kind() != ElementKind.POOL || guarantee.max() == 0 || !dominates(e.demandShare(), guarantee)) {
                continue;
            }
            ShareVector fs = e.fairShare().total();
            boolean reached = false;
            for (int r = 0; r < 5; r++) {
                if (guarantee.get(r) > 0 && fs.get(r) >= guarantee.get(r) - EPS) {
                    reached = true;
                }
            }
            assertTrue(reached, "seed " + seed + ": " + e.id() + " demands " + e.demandShare() + ", is guaranteed "
                    + guarantee + " but gets " + fs);
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void unmetDemandMeansSomethingIsSaturated(long seed) {
        FairShareResult result = FairShareUpdate.run(input(seed));
        ShareVector root = result.root().fairShare().total();
        ShareVector rootLimits = result.root().limitsShare();
        for (ElementShares op : result.elements().values()) {
            if (op.kind() != ElementKind.OPERATION) {
                continue;
            }
            ShareVector fs = op.fairShare().total();
            boolean unmet = false;
            for (int r = 0; r < 5; r++) {
                unmet |= fs.get(r) < op.demandShare().get(r) - EPS;
            }
            if (!unmet) {
                continue;
            }
            boolean saturated = false;
            for (int r = 0; r < 5 && !saturated; r++) {
                if (op.demandShare().get(r) <= 0) {
                    continue;
                }
                saturated = root.get(r) >= rootLimits.get(r) - EPS;
                for (ElementShares e = op; e != null && !saturated; e = e.parent() == null ? null : result.element(e.parent())) {
                    saturated = e.fairShare().total().get(r) >= e.limitsShare().get(r) - EPS;
                }
            }
            assertTrue(saturated, "seed " + seed + ": " + op.id() + " gets " + fs + " of its demand " + op.demandShare()
                    + " while no resource it needs is saturated on its path");
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void moreWeightNeverMeansLessShare(long seed) {
        FairShareInput input = input(seed);
        FairShareResult before = FairShareUpdate.run(input);
        SplittableRandom random = new SplittableRandom(seed);
        for (int trial = 0; trial < 3; trial++) {
            int index = random.nextInt(input.operations().size());
            List<OperationDemand> ops = new ArrayList<>(input.operations());
            OperationDemand op = ops.get(index);
            ops.set(index, op.withWeight(op.weight() * (2 + random.nextInt(4))));
            FairShareResult after = FairShareUpdate.run(new FairShareInput(input.tree(), input.totalResources(), ops,
                    input.integralState(), input.elapsedSeconds()));
            double was = before.element(op.id()).fairShare().total().max();
            double now = after.element(op.id()).fairShare().total().max();
            assertTrue(now >= was - EPS, "seed " + seed + ": raising the weight of " + op.id() + " lowered its share from "
                    + was + " to " + now);
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void integralVolumeIsNeverNegativeNorAboveCapacity(long seed) {
        FairShareInput input = input(seed);
        SplittableRandom random = new SplittableRandom(seed ^ 0x5DEECE66DL);
        Map<String, IntegralState> state = input.integralState();
        for (int step = 0; step < 6; step++) {
            double elapsed = random.nextDouble() * 3600;
            FairShareResult result = FairShareUpdate.run(new FairShareInput(input.tree(), input.totalResources(),
                    input.operations(), state, elapsed));
            for (Map.Entry<String, IntegralState> entry : result.integralState().entrySet()) {
                IntegralAttributes integral = result.element(entry.getKey()).integral();
                IntegralState previous = state.getOrDefault(entry.getKey(), IntegralState.EMPTY);
                for (ResourceType type : ResourceType.values()) {
                    double volume = integral.accumulatedResourceVolume().get(type);
                    double bound = Math.max(previous.accumulatedVolume().get(type), integral.integralPoolCapacity().get(type));
                    assertTrue(volume >= 0, "seed " + seed + ": negative volume " + volume + " in " + entry.getKey());
                    assertTrue(volume <= bound * (1 + 1e-12) + 1e-9, "seed " + seed + ": volume " + volume + " of "
                            + entry.getKey() + " grew past " + bound);
                }
            }
            state = result.integralState();
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void gangTreesKeepTheStructuralInvariants(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        FairShareInput input = TreeGenerator.generate(seed, new TreeGenerator.Shape(5 + random.nextInt(40),
                1 + random.nextInt(150), 1 + random.nextInt(3), true));
        FairShareResult result = FairShareUpdate.run(input);
        ShareVector root = result.element(PoolTreeConfig.ROOT).fairShare().total();
        for (int r = 0; r < 5; r++) {
            assertTrue(root.get(r) <= 1 + EPS, "seed " + seed + ": root fair share " + root);
        }
        Map<String, double[]> childrenSums = new HashMap<>();
        for (ElementShares e : result.elements().values()) {
            for (int r = 0; r < 5; r++) {
                assertTrue(e.fairShare().total().get(r) <= e.demandShare().get(r) + EPS,
                        "seed " + seed + ": " + e.id() + " above its demand");
            }
            if (e.parent() != null) {
                add(childrenSums.computeIfAbsent(e.parent(), k -> new double[5]), e.fairShare().total());
            }
        }
        childrenSums.forEach((parent, sum) -> {
            ShareVector share = result.element(parent).fairShare().total();
            for (int r = 0; r < 5; r++) {
                assertTrue(sum[r] <= share.get(r) + EPS, "seed " + seed + ": the children of " + parent + " sum to "
                        + java.util.Arrays.toString(sum) + ", past its fair share " + share);
            }
        });
    }

    private static boolean dominates(ShareVector a, ShareVector b) {
        for (int r = 0; r < 5; r++) {
            if (a.get(r) < b.get(r)) {
                return false;
            }
        }
        return true;
    }

    private static void add(double[] target, ShareVector v) {
        for (int r = 0; r < 5; r++) {
            target[r] += v.get(r);
        }
    }
}
