package io.grove.core.fairshare;

import io.grove.core.fairshare.function.PiecewiseLinearFunction;
import io.grove.core.fairshare.function.SuggestionFunctions;

/**
 * Working state of one element (root, pool or operation) during one update. Attributes are shares
 * of the tree total held as {@code double[5]}. Lives only inside {@link FairShareUpdate}.
 */
abstract class Element {

    /** Tolerance of feasibility checks. */
    static final double EPSILON = 1e-9;

    /** Set at construction, or for an operation when it is read. */
    String id;
    CompositeElement parent;

    double[] usage = Vec.ZERO;
    double[] demand = Vec.ZERO;

    double[] usageShare = Vec.ZERO;
    double[] demandShare = Vec.ZERO;
    double[] limitsShare = Vec.ZERO;
    double[] strongGuaranteeShare = Vec.ZERO;
    double[] proposedIntegralShare = Vec.ZERO;
    /** Absolute strong guarantee after inference. */
    double[] inferredStrongGuarantee = Vec.ZERO;

    /**
     * Total fair share; {@code null} until distributed. An operation under a fair-share pool finds
     * its own with its pool instead ({@link #regularFairShare}).
     */
    double[] fairShare;
    /** Promised guarantee fair share; {@code null} where not computed. */
    double[] promisedGuaranteeFairShare;
    int fifoIndex = -1;
    /** Lowers the weight by recent usage where the parent infers weights from it (1 elsewhere). */
    double weightMultiplier = 1.0;

    PiecewiseLinearFunction fairShareByFitFactor;
    PiecewiseLinearFunction fairShareBySuggestion;
    private boolean functionsPrepared;

    Element(String id) {
        this.id = id;
    }

    abstract double weight();

    abstract ElementKind kind();

    boolean isRoot() {
        return false;
    }

    double[] guaranteeShare() {
        return Vec.plus(strongGuaranteeShare, proposedIntegralShare);
    }

    /** Own limits as a share of the total; not combined with the ancestors' limits. */
    abstract double[] computeLimitsShare(UpdateContext context);

    /** Shares of usage, demand, limits and the strong guarantee. */
    void updateAttributes(UpdateContext context) {
        limitsShare = computeLimitsShare(context);
        // Operations have none: the shared zero, not an array of zeros each.
        strongGuaranteeShare = inferredStrongGuarantee == Vec.ZERO ? Vec.ZERO
                : Vec.share(inferredStrongGuarantee, context.total);
        usageShare = Vec.share(usage, context.total);
        demandShare = Vec.share(demand, context.total);
    }

    abstract void prepareFairShareByFitFactor(UpdateContext context);

    /** Builds the fair-share functions of this element (and of its subtree, for pools) once. */
    void prepareFairShareFunctions(UpdateContext context) {
        if (functionsPrepared) {
            return;
        }
        fairShareBySuggestion = buildFairShareBySuggestion(context);
        functionsPrepared = true;
    }

    /** {@code FairShareByFitFactor}, then {@code FairShareBySuggestion} from it, as a function. */
    PiecewiseLinearFunction buildFairShareBySuggestion(UpdateContext context) {
        walkSuggestion(context);
        return context.walker.plot().build();
    }

    /**
     * {@code FairShareByFitFactor}, then {@code FairShareBySuggestion} from it, left in the
     * walker's builder ({@link SuggestionFunctions.Walker#plot}) until the next walk.
     */
    void walkSuggestion(UpdateContext context) {
        prepareFairShareByFitFactor(context);
        Dims dims = context.dims;
        context.walker.walk(fairShareByFitFactor,
                dims.packSumInto(strongGuaranteeShare, proposedIntegralShare, context.guaranteeBuffer),
                dims.packInto(limitsShare, context.limitsBuffer));
    }

    /**
     * Appends {@code FairShareBySuggestion}, its argument divided by {@code scale}, to a
     * fair-share parent's children: straight from the walk, with no function of its own, unless
     * something reads the function later ({@link #keepsSuggestionFunction}). A pool's
     * {@code FairShareByFitFactor} is built by then ({@link CompositeElement#prepareFairShareMode}).
     */
    void addScaledSuggestion(ChildPoints points, double scale, UpdateContext context) {
        if (keepsSuggestionFunction()) {
            prepareFairShareFunctions(context);
            points.add(fairShareBySuggestion, scale);
        } else {
            walkSuggestion(context);
            points.add(context.walker.plot(), scale);
        }
    }

    /** Whether {@code FairShareBySuggestion} is read after its parent has copied it. */
    boolean keepsSuggestionFunction() {
        return false;
    }

    /** Its functions are to be built anew (under another guarantee or limits); the one built is dropped. */
    void resetFairShareFunctions() {
        functionsPrepared = false;
        fairShareBySuggestion = null;
    }

    /** Drops the functions once the update is done: the result keeps only numbers. */
    void releaseFunctions() {
        fairShareByFitFactor = null;
        fairShareBySuggestion = null;
    }

    /** Gives this element the fair share {@code suggested} and distributes it below. */
    abstract void computeAndSetFairShare(double[] suggested, FairShareType type);

    /** The regular fair share, {@code null} where the distribution did not reach this element. */
    double[] regularFairShare() {
        return fairShare;
    }

    void setFairShare(double[] total, FairShareType type) {
        if (type == FairShareType.REGULAR) {
            fairShare = total;
        } else {
            promisedGuaranteeFairShare = total;
        }
    }

    /** The fair share split into strong, integral and weight-proportional parts. */
    DetailedFairShare detailed(double[] total) {
        return total == null ? DetailedFairShare.ZERO
                : DetailedFairShare.split(total, strongGuaranteeShare, proposedIntegralShare);
    }

    /** Which fair share a distribution computes. */
    enum FairShareType {
        REGULAR,
        PROMISED_GUARANTEE
    }
}
