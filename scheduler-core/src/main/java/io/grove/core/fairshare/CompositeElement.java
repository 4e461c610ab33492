package io.grove.core.fairshare;

import io.grove.core.fairshare.function.FunctionBuilder;
import io.grove.core.fairshare.function.FunctionOps;
import io.grove.core.fairshare.function.PiecewiseLinearFunction;
import io.grove.core.pool.FifoSortParameter;
import io.grove.core.pool.IntegralGuaranteeType;
import io.grove.core.pool.PoolConfig;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.pool.SchedulingMode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The root or a pool: its fair share is what its children get, by weights (fair-share mode) or in
 * order (FIFO mode). Also holds the pool's integral state during the update.
 */
final class CompositeElement extends Element {

    /** The pool's configuration; {@code null} for the root. */
    final PoolConfig config;
    final List<Element> children = new ArrayList<>();
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

    /** Fair-share mode: the children's scaled {@code FairShareBySuggestion} functions. */
    private PiecewiseLinearFunction[] childFunctions;
    /** Fair-share mode: the critical point behind each integer fit factor, and whose it is. */
    private double[] criticalX;
    private int[] criticalChild;

    CompositeElement(PoolConfig config) {
        super(config == null ? PoolTreeConfig.ROOT : config.name());
        this.config = config;
    }

    @Override
    boolean isRoot() {
        return config == null;
    }

    @Override
    ElementKind kind() {
        return isRoot() ? ElementKind.ROOT : ElementKind.POOL;
    }

    @Override
    double weight() {
        return config == null ? 1.0 : config.effectiveWeight();
    }

    SchedulingMode mode() {
        return config == null ? SchedulingMode.FAIR_SHARE : config.mode();
    }

    IntegralGuaranteeType integralType() {
        return config == null ? IntegralGuaranteeType.NONE : config.integralGuarantees().guaranteeType();
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
            limits = Vec.min(limits, config.resourceLimits().asLimits().toArray());
            if (config.maxShareRatio() != null) {
                double[] capped = io.grove.core.resource.Resources.of(Vec.times(context.total, config.maxShareRatio()))
                        .quantized().toArray();
                limits = Vec.min(limits, capped);
            }
        }
        return Vec.share(limits, context.total);
    }

    /** Burst and flow ratios, usage and demand, bottom-up; FIFO order. */
    void updateCumulativeAttributes(UpdateContext context) {
        IntegralGuaranteeType type = integralType();
        specifiedBurstRatio = type == IntegralGuaranteeType.BURST
                ? Vec.maxRatio(config.integralGuarantees().burstGuaranteeResources().orElse(0).toArray(), context.total)
                : 0;
        burstRatio = specifiedBurstRatio;
        resourceFlowRatio = type == IntegralGuaranteeType.NONE ? 0
                : Vec.maxRatio(config.integralGuarantees().resourceFlow().orElse(0).toArray(), context.total);
        totalBurstRatio = burstRatio;
        totalResourceFlowRatio = resourceFlowRatio;
        usage = Vec.zero();
        demand = Vec.zero();
        for (Element child : children) {
            if (child instanceof CompositeElement pool) {
                pool.updateCumulativeAttributes(context);
                totalBurstRatio += pool.totalBurstRatio;
                totalResourceFlowRatio += pool.totalResourceFlowRatio;
            } else {
                child.updateAttributes(context);
            }
            Vec.addTo(usage, child.usage);
            Vec.addTo(demand, child.demand);
        }
        updateAttributes(context);
        if (isRoot()) {
            strongGuaranteeShare = Vec.zero();
            for (Element child : children) {
                Vec.addTo(strongGuaranteeShare, child.strongGuaranteeShare);
            }
        }
        if (mode() == SchedulingMode.FIFO) {
            sortedChildren = new ArrayList<>(children);
            sortedChildren.sort(fifoOrder(config.fifoSortParameters()));
            for (int i = 0; i < sortedChildren.size(); i++) {
                sortedChildren.get(i).fifoIndex = i;
            }
        }
    }

    private static Comparator<Element> fifoOrder(List<FifoSortParameter> parameters) {
        Comparator<Element> order = (a, b) -> 0;
        for (FifoSortParameter parameter : parameters) {
            order = order.thenComparing(switch (parameter) {
                case WEIGHT -> Comparator.comparingDouble((Element e) -> -e.weight());
                case START_TIME -> Comparator.comparing((Element e) -> ((OperationElement) e).operation.startTime(),
                        Comparator.nullsLast(Comparator.naturalOrder()));
                case PENDING_JOB_COUNT -> Comparator.comparingInt((Element e) -> ((OperationElement) e).operation.pendingJobCount());
            });
        }
        return order.thenComparingInt(e -> ((OperationElement) e).order);
    }

    @Override
    void prepareFairShareFunctions(UpdateContext context) {
        for (Element child : children) {
            child.prepareFairShareFunctions(context);
        }
        super.prepareFairShareFunctions(context);
    }

    @Override
    void prepareFairShareByFitFactor(UpdateContext context) {
        if (children.isEmpty()) {
            fairShareByFitFactor = PiecewiseLinearFunction.constant(0, 1, Vec.zero());
        } else if (mode() == SchedulingMode.FIFO) {
            prepareFifo();
        } else {
            prepareFairShareMode();
        }
    }

    /**
     * FIFO: child {@code k} ramps on {@code [k, k + 1]} on top of the full shares of the children
     * before it, so the first child gets all it can before the second gets anything.
     */
    private void prepareFifo() {
        FunctionBuilder builder = new FunctionBuilder(Vec.N, sortedChildren.size() * 8);
        double[] prefix = Vec.zero();
        double shift = 0;
        for (Element child : sortedChildren) {
            PiecewiseLinearFunction fsbs = child.fairShareBySuggestion.shift(shift, prefix);
            for (int i = 0; i < fsbs.size(); i++) {
                double[] value = new double[Vec.N];
                for (int c = 0; c < Vec.N; c++) {
                    value[c] = fsbs.v(i, c);
                }
                builder.add(fsbs.x(i), value, 0);
            }
            prefix = Vec.plus(prefix, child.fairShareBySuggestion.rightValue());
            shift += 1.0;
        }
        fairShareByFitFactor = builder.build();
    }

    /**
     * Fair-share mode with the improved fit-factor computation: child {@code c} is offered
     * {@code min(1, x * w_c / w_min)}. Every breakpoint of every child becomes one integer fit
     * factor, in order of the argument and then of the child; children cross their jumps one at a
     * time, so simultaneous jumps (gang operations) can be granted separately.
     */
    private void prepareFairShareMode() {
        double minWeight = Double.MAX_VALUE;
        for (Element child : children) {
            if (child.weight() > EPSILON) {
                minWeight = Math.min(minWeight, child.weight());
            }
        }
        int count = children.size();
        childFunctions = new PiecewiseLinearFunction[count];
        int totalPoints = 0;
        for (int i = 0; i < count; i++) {
            Element child = children.get(i);
            childFunctions[i] = child.fairShareBySuggestion.scaleArgument(child.weight() / minWeight).extendRight(1.0);
            totalPoints += childFunctions[i].size();
        }
        long[] keys = new long[totalPoints];
        double[] xs = new double[totalPoints];
        int n = 0;
        for (int i = 0; i < count; i++) {
            PiecewiseLinearFunction f = childFunctions[i];
            double last = f.leftBound();
            xs[n] = last;
            keys[n] = ((long) i << 32) | n;
            n++;
            for (int p = 1; p < f.size(); p++) {
                if (f.x(p) > last) {
                    last = f.x(p);
                    xs[n] = last;
                    keys[n] = ((long) i << 32) | n;
                    n++;
                }
            }
        }
        Integer[] order = new Integer[n];
        for (int k = 0; k < n; k++) {
            order[k] = k;
        }
        final double[] pointX = xs;
        final long[] pointKey = keys;
        Arrays.sort(order, (a, b) -> {
            int byX = Double.compare(pointX[a], pointX[b]);
            return byX != 0 ? byX : Long.compare(pointKey[a] >>> 32, pointKey[b] >>> 32);
        });
        criticalX = new double[n];
        criticalChild = new int[n];
        for (int k = 0; k < n; k++) {
            criticalX[k] = xs[order[k]];
            criticalChild[k] = (int) (keys[order[k]] >>> 32);
        }
        PiecewiseLinearFunction sum = FunctionOps.sum(Arrays.asList(childFunctions));
        FunctionBuilder builder = new FunctionBuilder(Vec.N, n * 2);
        double[] current = new double[Vec.N];
        double[] left = new double[Vec.N];
        double[] right = new double[Vec.N];
        for (int k = 0; k < n; k++) {
            double x = criticalX[k];
            boolean firstOfGroup = k == 0 || criticalX[k - 1] != x;
            boolean lastOfGroup = k == n - 1 || criticalX[k + 1] != x;
            if (firstOfGroup) {
                sum.leftLimit(x, left, 0);
                raiseTo(current, left, k == 0);
            }
            builder.add(k, current, 0);
            if (lastOfGroup) {
                sum.rightLimit(x, right, 0);
                raiseTo(current, right, false);
            } else {
                PiecewiseLinearFunction child = childFunctions[criticalChild[k]];
                child.leftLimit(x, left, 0);
                child.rightLimit(x, right, 0);
                for (int c = 0; c < Vec.N; c++) {
                    current[c] += right[c] - left[c];
                }
            }
            builder.add(k, current, 0);
        }
        fairShareByFitFactor = builder.build();
    }

    /**
     * Moves {@code current} to {@code target}, never down: the running sum and the exact sum can
     * differ in the last bit, and the function must stay non-decreasing.
     */
    private static void raiseTo(double[] current, double[] target, boolean reset) {
        for (int c = 0; c < Vec.N; c++) {
            current[c] = reset ? target[c] : Math.max(current[c], target[c]);
        }
    }

    /** The share child {@code index} gets at pool fit factor {@code f} (fair-share mode). */
    private double[] childShareAt(int index, double f) {
        PiecewiseLinearFunction child = childFunctions[index];
        double[] out = new double[Vec.N];
        int last = criticalX.length - 1;
        double fitFactor = Math.max(0, Math.min(last, f));
        int k = (int) Math.floor(fitFactor);
        if (fitFactor == k) {
            double x = criticalX[k];
            if (index >= criticalChild[k]) {
                child.leftLimit(x, out, 0);
            } else {
                child.rightLimit(x, out, 0);
            }
        } else if (criticalX[k + 1] == criticalX[k]) {
            double x = criticalX[k];
            if (index <= criticalChild[k]) {
                child.rightLimit(x, out, 0);
            } else {
                child.leftLimit(x, out, 0);
            }
        } else {
            double x = criticalX[k] + (fitFactor - k) * (criticalX[k + 1] - criticalX[k]);
            child.leftLimit(x, out, 0);
        }
        return out;
    }

    /** The share the FIFO child at {@code position} gets at pool fit factor {@code f}. */
    private double[] fifoChildShareAt(int position, double f) {
        int satisfied = (int) f;
        Element child = sortedChildren.get(position);
        if (position < satisfied) {
            return child.fairShareBySuggestion.valueAt(1.0);
        }
        double rest = f - satisfied;
        if (position == satisfied && rest != 0) {
            return child.fairShareBySuggestion.valueAt(rest);
        }
        return Vec.zero();
    }

    @Override
    void computeAndSetFairShare(double[] suggested, FairShareType type) {
        if (children.isEmpty()) {
            setFairShare(Vec.zero(), type);
            return;
        }
        double fitFactor = fairShareByFitFactor.maxArgumentNotAbove(suggested);
        if (fitFactor < EPSILON) {
            fitFactor = 0;
        }
        if (mode() == SchedulingMode.FIFO) {
            for (int position = 0; position < sortedChildren.size(); position++) {
                sortedChildren.get(position).computeAndSetFairShare(fifoChildShareAt(position, fitFactor), type);
            }
        } else {
            for (int i = 0; i < children.size(); i++) {
                children.get(i).computeAndSetFairShare(childShareAt(i, fitFactor), type);
            }
        }
        setFairShare(suggested, type);
    }

    /** Computes the promised guarantee fair share in the uppermost pools that ask for it. */
    void computePromisedGuaranteeFairShare() {
        if (shouldComputePromisedGuaranteeFairShare()) {
            computeAndSetFairShare(fairShareBySuggestion.valueAt(0.0), FairShareType.PROMISED_GUARANTEE);
            return;
        }
        for (Element child : children) {
            if (child instanceof CompositeElement pool) {
                pool.computePromisedGuaranteeFairShare();
            }
        }
    }
}
