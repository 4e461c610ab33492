package io.grove.core.fairshare;

import io.grove.core.fairshare.function.FunctionBuilder;
import io.grove.core.fairshare.function.PiecewiseLinearFunction;
import io.grove.core.fairshare.function.SuggestionFunctions;
import io.grove.core.pool.SchedulingMode;
import io.grove.core.resource.ResourceType;
import io.grove.core.resource.Resources;
import java.util.Arrays;

/** An operation: a leaf whose fair share first covers its usage, then grows towards its demand. */
final class OperationElement extends Element {

    OperationDemand operation;
    final int order;
    // Copied from the operation, so that the walks over the tree stay within the elements.
    private double weight;
    private boolean gang;
    private boolean unlimited;
    /** Its shares are worked out (by its pool's walk of the attributes, or when its functions are built). */
    private boolean attributed;
    /** Its place among its pool's operations, where a fair-share pool keeps their fair shares. */
    int slot;

    /**
     * An element whose operation is read later ({@link #read}): made in pool order, so that the
     * walks find a pool's operations together, and read in input order, so that reading the
     * input does not jump about it. Its usage and demand are allocated with it, next to it.
     */
    OperationElement(int order) {
        super(null);
        this.order = order;
        this.usage = new double[ResourceType.COUNT];
        this.demand = new double[ResourceType.COUNT];
    }

    /** Takes the operation's identity, usage, demand, weight and limits. */
    void read(OperationDemand operation) {
        this.id = operation.id();
        this.operation = operation;
        operation.usage().copyInto(usage);
        operation.demand().copyInto(demand);
        this.weight = operation.weight();
        this.gang = operation.gang();
        this.unlimited = operation.resourceLimits() == Resources.UNLIMITED
                && operation.bestAllocationShare() == OperationDemand.NO_FIT_CAP;
    }

    @Override
    double weight() {
        return weight * weightMultiplier;
    }

    @Override
    ElementKind kind() {
        return ElementKind.OPERATION;
    }

    /**
     * Its shares, the usage and demand turned into shares in their own arrays (by then its pool
     * has summed them, and nothing reads them again): no new arrays for 100,000 operations. An
     * operation has no strong guarantee (its share stays the shared zero).
     */
    @Override
    void updateAttributes(UpdateContext context) {
        limitsShare = computeLimitsShare(context);
        usageShare = Vec.shareInPlace(usage, context.total);
        demandShare = Vec.shareInPlace(demand, context.total);
        usage = null;
        demand = null;
        attributed = true;
    }

    @Override
    double[] computeLimitsShare(UpdateContext context) {
        if (unlimited) {
            return context.wholeTreeShare;
        }
        double[] own = Vec.share(Vec.min(operation.resourceLimits().toArray(), context.total), context.total);
        return Vec.min(own, operation.bestAllocationShare().toArray());
    }

    /**
     * On {@code [0, 1]} the usage is covered in equal dominant steps ({@code min(U_r, f * max U)});
     * on {@code [1, 2]} the share grows linearly from usage to demand. A gang operation under step
     * functions gets nothing up to 1 and its whole demand after.
     */
    @Override
    void prepareFairShareByFitFactor(UpdateContext context) {
        FunctionBuilder builder = context.scratch.reset();
        Dims dims = context.dims;
        double[] zero = dims.zero;
        // The builder copies each point, so one buffer serves every point of every operation.
        double[] point = context.pointBuffer;
        if (stepFunction(context)) {
            double[] demanded = dims.packInto(demandShare, point);
            builder.add(0, zero, 0).add(1, zero, 0).add(1, demanded, 0).add(2, demanded, 0);
            fairShareByFitFactor = builder.build();
            return;
        }
        double maxUsage = Vec.maxComponent(usageShare);
        builder.add(0, zero, 0);
        if (maxUsage == 0) {
            builder.add(1, zero, 0);
        } else {
            int steps = usageSteps(context, maxUsage);
            for (int i = 0; i < steps; i++) {
                builder.add(context.stepBuffer[i], dims.packCappedInto(context.sortBuffer[i], usageShare, point), 0);
            }
        }
        builder.add(1, dims.packInto(usageShare, point), 0).add(2, dims.packInto(demandShare, point), 0);
        fairShareByFitFactor = builder.build();
    }

    /**
     * An operation that runs jobs and whose limits cover its demand (the usual case; no gang
     * step function) walks {@code FairShareBySuggestion} straight from its usage steps
     * ({@link SuggestionFunctions.Walker#beginSteps}): the function the walk of
     * {@link #prepareFairShareByFitFactor}'s plot gives, without the plot.
     */
    @Override
    void walkSuggestion(UpdateContext context) {
        double maxUsage = Vec.maxComponent(usageShare);
        if (maxUsage == 0 || stepFunction(context) || strongGuaranteeShare != Vec.ZERO
                || proposedIntegralShare != Vec.ZERO || !Vec.dominates(limitsShare, demandShare)) {
            super.walkSuggestion(context);
            return;
        }
        Dims dims = context.dims;
        double[] point = context.pointBuffer;
        SuggestionFunctions.Walker walker = context.walker;
        walker.beginSteps();
        int steps = usageSteps(context, maxUsage);
        for (int i = 0; i < steps; i++) {
            walker.step(dims.packCappedInto(context.sortBuffer[i], usageShare, point));
        }
        walker.finishSteps(dims.packInto(demandShare, point));
    }

    /**
     * The steps in which the usage is covered: its distinct positive values {@code u} in
     * increasing order, into {@code context.sortBuffer}, and their fit factors {@code u / maxUsage}
     * into {@code context.stepBuffer} (a value whose fit factor rounds to the one before is no
     * step of its own); returns how many.
     */
    private int usageSteps(UpdateContext context, double maxUsage) {
        double[] sorted = context.sortBuffer;
        System.arraycopy(usageShare, 0, sorted, 0, sorted.length);
        Arrays.sort(sorted);
        int steps = 0;
        double previous = 0;
        for (int i = 0; i < sorted.length; i++) {
            double u = sorted[i];
            double fitFactor = u / maxUsage;
            if (fitFactor > previous) {
                // steps <= i: the values not yet read stay in place.
                sorted[steps] = u;
                context.stepBuffer[steps] = fitFactor;
                steps++;
                previous = fitFactor;
            }
        }
        return steps;
    }

    /** A gang operation under step functions: nothing up to fit factor 1, its whole demand after. */
    private boolean stepFunction(UpdateContext context) {
        return context.stepFunctionForGangOperations && parent.stepFunctionForGangOperationsEnabled() && gang;
    }

    /**
     * An operation that runs nothing and whose limits cover its demand has, with no guarantee,
     * {@code FairShareBySuggestion(s) = D * min(1, s / d)} for its demand share {@code D} with
     * dominant component {@code d}: a ramp of three points (none demanded: the constant zero,
     * a ramp of top zero).
     */
    private boolean ramps(UpdateContext context) {
        return !(gang && context.stepFunctionForGangOperations) && Vec.isZero(usageShare)
                && Vec.dominates(limitsShare, demandShare);
    }

    /** Most pools leave their operations' shares to this point, where the operation is at hand. */
    private void attribute(UpdateContext context) {
        if (!attributed) {
            updateAttributes(context);
        }
    }

    /** Under a FIFO pool, which reads its children's functions to the end: as a function. */
    @Override
    void prepareFairShareFunctions(UpdateContext context) {
        if (fairShareBySuggestion != null) {
            return;
        }
        attribute(context);
        if (!ramps(context)) {
            super.prepareFairShareFunctions(context);
            // The fit-factor function of an operation was only the walk's input.
            fairShareByFitFactor = null;
            return;
        }
        double dominant = Vec.maxComponent(demandShare);
        fairShareBySuggestion = dominant == 0 ? PiecewiseLinearFunction.constant(0, 1, context.dims.zero)
                : PiecewiseLinearFunction.ramp(dominant, context.dims.pack(demandShare));
    }

    /**
     * Under a fair-share pool: the ramp, or the walk, straight into the pool's {@link ChildPoints},
     * with no function object.
     */
    @Override
    void addScaledSuggestion(ChildPoints points, double scale, UpdateContext context) {
        attribute(context);
        if (ramps(context)) {
            double dominant = Vec.maxComponent(demandShare);
            if (dominant == 0) {
                points.addRamp(1.0, context.dims.zero, scale);
            } else {
                points.addRamp(dominant, context.dims.packInto(demandShare, context.pointBuffer), scale);
            }
        } else {
            walkSuggestion(context);
            points.add(context.walker.plot(), scale);
            fairShareByFitFactor = null;
        }
    }

    /**
     * Under a fair-share pool, the share the distribution wrote into the pool's array for it
     * ({@link CompositeElement#computeAndSetFairShare}), which does not visit the operation.
     */
    @Override
    double[] regularFairShare() {
        return fairShare != null ? fairShare : parent.operationShare(slot);
    }

    /**
     * Takes its share: the regular one under a FIFO pool, the promised one under any pool. It has
     * no function under a fair-share pool, which walked it straight into its {@link ChildPoints};
     * a FIFO pool reads it to the end, and the result's walk lets it go.
     */
    @Override
    void computeAndSetFairShare(double[] suggested, FairShareType type) {
        setFairShare(suggested, type);
    }
}
