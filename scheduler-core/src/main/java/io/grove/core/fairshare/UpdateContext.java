package io.grove.core.fairshare;

import io.grove.core.fairshare.function.FunctionBuilder;
import io.grove.core.fairshare.function.SuggestionFunctions;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.resource.ResourceType;
import io.grove.core.resource.Resources;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Settings and collected state shared by the steps of one update. */
final class UpdateContext {

    final PoolTreeConfig tree;
    final double[] total;
    /** The share of the whole tree: 1 for every resource the tree has, 0 for the others. Not to be written. */
    final double[] wholeTreeShare;
    final ResourceType mainResource;
    final boolean stepFunctionForGangOperations;
    final double smoothPeriodSeconds;
    final double saturationPeriodSeconds;
    final double relaxedShareMultiplierLimit;
    final boolean shouldDistributeFreeVolumeAmongChildren;
    /** Seconds since the previous update, or {@code null} on the first one. */
    final Double elapsedSeconds;

    /** By pool name, the resources of the nodes its tag filter matches. */
    final Map<String, Resources> poolResourceCaps;
    /** Usage averages of the previous update, and of this one (children of pools that infer weights from them). */
    final Map<String, Double> historicUsageIn;
    final Map<String, Double> historicUsageOut = new LinkedHashMap<>();

    final List<CompositeElement> burstPools = new ArrayList<>();
    final List<CompositeElement> relaxedPools = new ArrayList<>();
    final List<Alert> alerts = new ArrayList<>();
    /** What walks read ahead of themselves to overlap their cache misses; never used, only kept. */
    long loadedAhead;
    /** The root, the pools and the operations: how many elements the tree has. */
    int elementCount;
    /** The resources the functions carry; every one until {@link #useDims}. */
    Dims dims = Dims.ALL;
    /** Buffers for the points of an operation's function on their way into {@link #scratch}. */
    final double[] pointBuffer = new double[Vec.N];
    final double[] sortBuffer = new double[Vec.N];
    /** The fit factors of an operation's usage steps (see {@link OperationElement}). */
    final double[] stepBuffer = new double[Vec.N];
    /** Buffers for the guarantee and the limits a suggestion walk reads (and does not keep). */
    final double[] guaranteeBuffer = new double[Vec.N];
    final double[] limitsBuffer = new double[Vec.N];
    /** Where the arrays below come from once the resources are chosen, kept between updates. */
    private final FairShareWorkspace workspace;
    /** A builder reused for every function of this update (one thread), so that only results are allocated. */
    FunctionBuilder scratch;
    /** Where each fair-share pool's children put their scaled functions, set after set (see {@link CompositeElement}). */
    ChildPoints childPoints;
    /** The working arrays of every pool's sweep. */
    final FitFactorSweep.Scratch sweepScratch;
    /** The suggestion walk of every element, on {@link #scratch}, its working vectors kept. */
    SuggestionFunctions.Walker walker;

    UpdateContext(FairShareInput input, FairShareWorkspace workspace) {
        this.workspace = workspace;
        this.sweepScratch = workspace.sweepScratch;
        this.tree = input.tree();
        this.total = input.totalResources().toArray();
        this.wholeTreeShare = Vec.share(total, total);
        this.mainResource = tree.mainResource();
        this.stepFunctionForGangOperations = tree.enableStepFunctionForGangOperations();
        this.smoothPeriodSeconds = seconds(tree.integralGuarantees().smoothPeriod());
        this.saturationPeriodSeconds = seconds(tree.integralGuarantees().poolCapacitySaturationPeriod());
        this.relaxedShareMultiplierLimit = tree.integralGuarantees().relaxedShareMultiplierLimit();
        this.shouldDistributeFreeVolumeAmongChildren = tree.integralGuarantees().shouldDistributeFreeVolumeAmongChildren();
        this.elapsedSeconds = input.elapsedSeconds();
        this.poolResourceCaps = input.poolResourceCaps();
        this.historicUsageIn = input.historicUsage();
        this.expectedPoints = Math.max(1024, 2 * input.operations().size());
    }

    /**
     * About as many points as the largest function of the update has (every operation's breakpoints
     * reach the root's), so that the scratch builder is not doubled a dozen times per update.
     */
    private final int expectedPoints;

    private static double seconds(Duration duration) {
        return duration.getSeconds() + duration.getNano() / 1e9;
    }

    /** Chooses the resources of the functions; before any function is built. */
    void useDims(Dims chosen) {
        dims = chosen;
        workspace.prepare(chosen.count(), expectedPoints);
        scratch = workspace.builder();
        walker = workspace.walker();
        childPoints = workspace.points();
    }

    boolean totalIsZero() {
        return Vec.isZero(total);
    }
}
