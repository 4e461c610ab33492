package io.grove.core.fairshare;

import io.grove.core.fairshare.function.PiecewiseLinearFunction;
import io.grove.core.pool.IntegralGuaranteeType;
import io.grove.core.pool.PoolConfig;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.pool.SchedulingMode;
import io.grove.core.resource.Resources;
import java.util.ArrayList;
import java.util.List;

/**
 * The root or a pool: its fair share is what its children get, by weights (fair-share mode) or in
 * order (FIFO mode). Also holds the pool's integral state during the update.
 */
final class CompositeElement extends Element {

    /** The pool's configuration; {@code null} for the root. */
    final PoolConfig config;
    /** Index in the order pools were attached (pre-order, the root 0). */
    final int position;
    final ArrayList<Element> children = new ArrayList<>();
    /** The pools among {@link #children}, so that walks over pools alone skip the operations. */
    final List<CompositeElement> childPools = new ArrayList<>();
    /** Children in FIFO order (FIFO pools only). */
    List<Element> sortedChildren = List.of();

    double burstRatio;
    double resourceFlowRatio;
    double totalBurstRatio;
    double totalResourceFlowRatio;
    /** Burst ratio from the configuration, before any overcommit scaling. */
    double specifiedBurstRatio;

    double[] accumulatedVolume = Vec.zero();
    double lastShareRatio;
    double[] volumeOverflow = Vec.zero();
    double[] acceptableVolume = Vec.zero();
    double[] childrenVolumeOverflow = Vec.zero();
    double[] acceptedFreeVolume = Vec.zero();

    /** The resources of the functions, from the update. */
    private Dims dims = Dims.ALL;
    /**
     * Fair-share mode: the sweep of the children's scaled {@code FairShareBySuggestion} functions,
     * which keeps them and the critical point behind each integer fit factor for the distribution.
     */
    private FitFactorSweep sweep;
    /**
     * Fair-share mode: the regular fair shares of this pool's operations as the distribution
     * found them, packed ({@link Dims}), one after another in the order of {@link #children}
     * (where the operations follow the child pools); {@code null} until then. Written here, not
     * into the operations, so that the distribution does not visit 100,000 of them.
     */
    private double[] operationShares;

    /**
     * The sums of the usage and demand of this pool's operations, added as they are attached, where
     * the pool has no child pools (its children are then its operations, in the order summed here);
     * {@code null} elsewhere. Such a pool's walk of the attributes need not visit its operations.
     */
    private double[] operationsUsage;
    private double[] operationsDemand;

    /** Read from the configuration once, as the walks after the first find it far away in memory. */
    private final IntegralGuaranteeType integralType;
    private final boolean integralParent;

    CompositeElement(PoolConfig config, int position) {
        super(config == null ? PoolTreeConfig.ROOT : config.name());
        this.config = config;
        this.position = position;
        this.integralType = config == null ? IntegralGuaranteeType.NONE : config.integralGuarantees().guaranteeType();
        this.integralParent = config != null && integralType == IntegralGuaranteeType.NONE
                && (!config.integralGuarantees().resourceFlow().isEmpty()
                        || !config.integralGuarantees().burstGuaranteeResources().isEmpty());
    }

    @Override
    boolean isRoot() {
        return config == null;
    }

    @Override
    ElementKind kind() {
        return isRoot() ? ElementKind.ROOT : ElementKind.POOL;
    }

    /** A weight inferred from guarantees ({@link GuaranteeWeights}); NaN: the configured one. */
    double inferredWeight = Double.NaN;

    @Override
    double weight() {
        double base = Double.isNaN(inferredWeight) ? (config == null ? 1.0 : config.effectiveWeight()) : inferredWeight;
        return base * weightMultiplier;
    }

    SchedulingMode mode() {
        return config == null ? SchedulingMode.FAIR_SHARE : config.mode();
    }

    IntegralGuaranteeType integralType() {
        return integralType;
    }

    /** A pool of type none that declares a flow or burst resources, bounding the integral pools below it. */
    boolean isIntegralParent() {
        return integralParent;
    }

    boolean stepFunctionForGangOperationsEnabled() {
        return config == null || config.enableStepFunctionForGangOperations() == null
                || config.enableStepFunctionForGangOperations();
    }

    boolean shouldComputePromisedGuaranteeFairShare() {
        return config != null && config.computePromisedGuaranteeFairShare();
    }

    boolean canAcceptFreeVolume() {
        return config == null || config.integralGuarantees().canAcceptFreeVolume();
    }

    boolean shouldDistributeFreeVolumeAmongChildren(UpdateContext context) {
        Boolean own = config == null ? null : config.integralGuarantees().shouldDistributeFreeVolumeAmongChildren();
        return own == null ? context.shouldDistributeFreeVolumeAmongChildren : own;
    }

    double relaxedShareMultiplierLimit(UpdateContext context) {
        Double own = config == null ? null : config.integralGuarantees().relaxedShareMultiplierLimit();
        return own == null ? context.relaxedShareMultiplierLimit : own;
    }

    @Override
    double[] computeLimitsShare(UpdateContext context) {
        double[] limits = context.total.clone();
        if (config != null) {
            limits = Vec.min(limits, config.resourceLimits().toArray(Double.POSITIVE_INFINITY));
            if (config.maxShareRatio() != null) {
                double[] capped = Resources.of(Vec.times(context.total, config.maxShareRatio()))
                        .quantized().toArray();
                limits = Vec.min(limits, capped);
            }
            Resources matchingNodes = context.poolResourceCaps.get(id);
            if (matchingNodes != null) {
                limits = Vec.min(limits, matchingNodes.toArray());
            }
        }
        return Vec.share(limits, context.total);
    }

    /**
     * Adds an operation just attached to the sums of its pool's operations, where the pool has no
     * child pools (all pools are attached before the operations): the same additions in the same
     * order as {@link #updateCumulativeAttributes} would make, while the operation is at hand.
     */
    void addOperationSums(OperationElement operation) {
        if (!childPools.isEmpty()) {
            return;
        }
        if (operationsUsage == null) {
            operationsUsage = Vec.zero();
            operationsDemand = Vec.zero();
        }
        Vec.addTo(operationsUsage, operation.usage);
        Vec.addTo(operationsDemand, operation.demand);
    }

    /**
     * Whether this pool's operations' shares are read before their functions are built (the
     * root's children by the integral shares and the root's fair share; children whose weights
     * follow their historic usage). Elsewhere an operation works its shares out when its
     * functions are built ({@link OperationElement#prepareFairShareFunctions}).
     */
    private boolean operationsAttributedEarly() {
        return isRoot() || config.infersChildrenWeightsFromHistoricUsage();
    }

    /** Burst and flow ratios, usage and demand, bottom-up; FIFO order. */
    void updateCumulativeAttributes(UpdateContext context) {
        IntegralGuaranteeType type = integralType();
        specifiedBurstRatio = type == IntegralGuaranteeType.BURST
                ? Vec.maxRatio(config.integralGuarantees().burstGuaranteeResources().toArray(0), context.total)
                : 0;
        burstRatio = specifiedBurstRatio;
        resourceFlowRatio = type == IntegralGuaranteeType.NONE ? 0
                : Vec.maxRatio(config.integralGuarantees().resourceFlow().toArray(0), context.total);
        totalBurstRatio = burstRatio;
        totalResourceFlowRatio = resourceFlowRatio;
        if (operationsUsage != null) {
            usage = operationsUsage;
            demand = operationsDemand;
            if (operationsAttributedEarly()) {
                for (Element child : children) {
                    child.updateAttributes(context);
                }
            }
        } else {
            usage = Vec.zero();
            demand = Vec.zero();
            for (Element child : children) {
                if (child instanceof CompositeElement pool) {
                    pool.updateCumulativeAttributes(context);
                    totalBurstRatio += pool.totalBurstRatio;
                    totalResourceFlowRatio += pool.totalResourceFlowRatio;
                    Vec.addTo(usage, child.usage);
                    Vec.addTo(demand, child.demand);
                } else {
                    // Added before its attributes, which turn an operation's usage and demand into shares.
                    Vec.addTo(usage, child.usage);
                    Vec.addTo(demand, child.demand);
                    child.updateAttributes(context);
                }
            }
        }
        updateAttributes(context);
        if (config != null && config.infersChildrenWeightsFromHistoricUsage()) {
            HistoricUsage.apply(this, context);
        }
        if (isRoot()) {
            strongGuaranteeShare = Vec.zero();
            for (Element child : children) {
                Vec.addTo(strongGuaranteeShare, child.strongGuaranteeShare);
            }
        }
        if (mode() == SchedulingMode.FIFO) {
            sortedChildren = new ArrayList<>(children);
            sortedChildren.sort(FifoShares.order(config.fifoSortParameters()));
            for (int i = 0; i < sortedChildren.size(); i++) {
                sortedChildren.get(i).fifoIndex = i;
            }
        }
    }

    /**
     * The root needs no {@code FairShareBySuggestion}, only its value at suggestion 1: the share
     * at the largest fit factor within the limits (a suggestion of 1 covers any guarantee).
     */
    void prepareRootFunctions(UpdateContext context) {
        prepareFairShareByFitFactor(context);
    }

    /** A promised pool reads its {@code FairShareBySuggestion} after the distribution. */
    @Override
    boolean keepsSuggestionFunction() {
        return shouldComputePromisedGuaranteeFairShare();
    }

    double[] fairShareAtFullSuggestion() {
        double[] limits = dims.pack(limitsShare);
        double[] limit = new double[limits.length];
        for (int r = 0; r < limits.length; r++) {
            double low = fairShareByFitFactor.leftValue(r);
            double high = fairShareByFitFactor.rightValue(r);
            limit[r] = Math.min(Math.max(limits[r], low), high);
        }
        return dims.unpack(fairShareByFitFactor.furthestValueNotAbove(limit));
    }

    /**
     * Builds {@code FairShareByFitFactor} and everything below it, once. Integral pools build
     * their functions twice, under a trial guarantee and then under the one found
     * ({@link IntegralShares}); their {@code FairShareByFitFactor} depends on their children
     * alone, which stay as they are, so the second build only walks it again.
     */
    @Override
    void prepareFairShareByFitFactor(UpdateContext context) {
        if (fairShareByFitFactor != null) {
            return;
        }
        dims = context.dims;
        if (children.isEmpty()) {
            fairShareByFitFactor = PiecewiseLinearFunction.constant(0, 1, dims.zero);
        } else if (mode() == SchedulingMode.FIFO) {
            for (Element child : children) {
                child.prepareFairShareFunctions(context);
            }
            fairShareByFitFactor = FifoShares.fitFactorFunction(sortedChildren, dims.count(), context.scratch.reset());
        } else {
            prepareFairShareMode(context);
        }
    }

    /**
     * Fair-share mode with the improved fit-factor computation: child {@code c} is offered
     * {@code min(1, x * w_c / w_min)}, and every breakpoint of every child becomes one integer fit
     * factor ({@link FitFactorSweep}).
     *
     * <p>First the child pools build their subtrees, each in turn filling its own set of the
     * update's {@link UpdateContext#childPoints}; then every child walks its
     * {@code FairShareBySuggestion} straight into this pool's set, which the pool keeps sealed
     * (the walks build no function, and no points are copied).
     */
    private void prepareFairShareMode(UpdateContext context) {
        double minWeight = Double.MAX_VALUE;
        for (Element child : children) {
            if (child.weight() > EPSILON) {
                minWeight = Math.min(minWeight, child.weight());
            }
        }
        for (CompositeElement pool : childPools) {
            pool.prepareFairShareByFitFactor(context);
        }
        ChildPoints points = context.childPoints;
        points.begin();
        for (Element child : children) {
            child.addScaledSuggestion(points, child.weight() / minWeight, context);
        }
        sweep = FitFactorSweep.run(points.seal(), dims.count(), context.scratch.reset(), context.sweepScratch);
        fairShareByFitFactor = sweep.function;
    }

    /**
     * The share child {@code index} gets at {@code cut} (fair-share mode), a new array; {@code out}
     * holds the packed share on the way.
     */
    private double[] childShareAt(int index, FitFactorSweep.Cut cut, double[] out) {
        sweep.shareInto(index, cut, out, 0);
        return dims.unpackCopy(out);
    }

    @Override
    void releaseFunctions() {
        super.releaseFunctions();
        sweep = null;
        sortedChildren = List.of();
    }

    /** The regular fair share the distribution gave operation {@code slot} of this pool, a new vector; {@code null} if none. */
    double[] operationShare(int slot) {
        return operationShares == null ? null : dims.unpack(operationShares, slot * dims.count());
    }

    @Override
    void computeAndSetFairShare(double[] suggested, FairShareType type) {
        if (children.isEmpty()) {
            setFairShare(Vec.zero(), type);
            return;
        }
        double fitFactor = fitFactorFor(suggested);
        if (mode() == SchedulingMode.FIFO) {
            for (int position = 0; position < sortedChildren.size(); position++) {
                sortedChildren.get(position).computeAndSetFairShare(
                        FifoShares.childShareAt(sortedChildren.get(position), position, fitFactor, dims), type);
            }
        } else {
            FitFactorSweep.Cut cut = sweep.cut(fitFactor);
            double[] packed = new double[dims.count()];
            int pools = childPools.size();
            for (int i = 0; i < pools; i++) {
                children.get(i).computeAndSetFairShare(childShareAt(i, cut, packed), type);
            }
            if (type == FairShareType.REGULAR) {
                int d = dims.count();
                double[] shares = new double[(children.size() - pools) * d];
                for (int i = pools; i < children.size(); i++) {
                    sweep.shareInto(i, cut, shares, (i - pools) * d);
                }
                operationShares = shares;
            } else {
                for (int i = pools; i < children.size(); i++) {
                    children.get(i).computeAndSetFairShare(childShareAt(i, cut, packed), type);
                }
            }
        }
        setFairShare(suggested, type);
    }

    /**
     * The largest fit factor whose share fits into {@code suggested}. When that leaves a gap (the
     * share ends at the top of a jump, which the fit factor alone cannot express), a slack of
     * {@link #EPSILON} lets it step over the jump.
     */
    private double fitFactorFor(double[] suggestedFull) {
        double[] suggested = dims.pack(suggestedFull);
        double fitFactor = fairShareByFitFactor.maxArgumentNotAbove(suggested);
        double[] reached = fairShareByFitFactor.valueAt(fitFactor);
        boolean gap = false;
        for (int r = 0; r < suggested.length; r++) {
            gap |= suggested[r] - reached[r] > EPSILON;
        }
        if (gap) {
            double[] slack = new double[suggested.length];
            for (int r = 0; r < suggested.length; r++) {
                slack[r] = suggested[r] + EPSILON;
            }
            fitFactor = Math.max(fitFactor, fairShareByFitFactor.maxArgumentNotAbove(slack));
        }
        return fitFactor < EPSILON ? 0 : fitFactor;
    }

    /** Computes the promised guarantee fair share in the uppermost pools that ask for it. */
    void computePromisedGuaranteeFairShare() {
        if (shouldComputePromisedGuaranteeFairShare()) {
            computeAndSetFairShare(dims.unpack(fairShareBySuggestion.valueAt(0.0)), FairShareType.PROMISED_GUARANTEE);
            return;
        }
        for (CompositeElement pool : childPools) {
            pool.computePromisedGuaranteeFairShare();
        }
    }
}
