package io.grove.core.fairshare;

import io.grove.core.fairshare.function.FunctionOps;
import io.grove.core.fairshare.function.PiecewiseLinearFunction;
import io.grove.core.fairshare.function.SuggestionFunctions;

/**
 * Working state of one element (root, pool or operation) during one update. Attributes are shares
 * of the tree total held as {@code double[5]}. Lives only inside {@link FairShareUpdate}.
 */
abstract class Element {

    /** Tolerance of feasibility checks. */
    static final double EPSILON = 1e-9;
    /** Points closer than this to a chord are merged when functions are compressed. */
    static final double COMPRESS_EPSILON = 1e-15;

    final String id;
    CompositeElement parent;

    double[] usage = Vec.zero();
    double[] demand = Vec.zero();

    double[] usageShare = Vec.zero();
    double[] demandShare = Vec.zero();
    double[] limitsShare = Vec.zero();
    double[] strongGuaranteeShare = Vec.zero();
    double[] proposedIntegralShare = Vec.zero();
    /** Absolute strong guarantee after inference. */
    double[] inferredStrongGuarantee = Vec.zero();

    double[] fairShare;
    DetailedFairShare detailedFairShare = DetailedFairShare.ZERO;
    DetailedFairShare promisedGuaranteeFairShare;
    int fifoIndex = -1;

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
        strongGuaranteeShare = Vec.share(inferredStrongGuarantee, context.total);
        usageShare = Vec.share(usage, context.total);
        demandShare = Vec.share(demand, context.total);
    }

    abstract void prepareFairShareByFitFactor(UpdateContext context);

    /** Builds the fair-share functions of this element (and of its subtree, for pools) once. */
    void prepareFairShareFunctions(UpdateContext context) {
        if (functionsPrepared) {
            return;
        }
        prepareFairShareByFitFactor(context);
        fairShareBySuggestion = FunctionOps.compress(
                SuggestionFunctions.fairShareBySuggestion(fairShareByFitFactor, guaranteeShare(), limitsShare),
                COMPRESS_EPSILON);
        functionsPrepared = true;
    }

    void resetFairShareFunctions() {
        functionsPrepared = false;
    }

    /** Gives this element the fair share {@code suggested} and distributes it below. */
    abstract void computeAndSetFairShare(double[] suggested, FairShareType type);

    void setFairShare(double[] total, FairShareType type) {
        DetailedFairShare detailed = DetailedFairShare.split(total, strongGuaranteeShare, proposedIntegralShare);
        if (type == FairShareType.REGULAR) {
            fairShare = total;
            detailedFairShare = detailed;
        } else {
            promisedGuaranteeFairShare = detailed;
        }
    }

    /** Which fair share a distribution computes. */
    enum FairShareType {
        REGULAR,
        PROMISED_GUARANTEE
    }
}
