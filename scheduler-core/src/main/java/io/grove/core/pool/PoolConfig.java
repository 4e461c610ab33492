package io.grove.core.pool;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * One pool as the admin configured it (see docs/pools.md#pool-attributes). Optional attributes are {@code null} when
 * unset; effective values come from the tree ({@link PoolTreeConfig}) or the parent.
 *
 * @param name unique within the tree, of {@code [-_a-zA-Z0-9:]}
 * @param weight share of the parent's weight-proportional distribution; {@code null} means 1
 * @param strongGuaranteeResources strong guarantee; unset resources are inferred from the main one
 * @param resourceLimits hard limits; unset resources are unlimited
 * @param maxShareRatio caps the limits at this fraction of the tree total
 * @param mode fair-share or FIFO
 * @param fifoSortParameters order of operations in a FIFO pool
 * @param fifoPoolSchedulingOrder heartbeat order inside a FIFO pool; {@code null} takes the tree's
 * @param integralGuarantees burst or relaxed guarantee, or none
 * @param maxOperationCount running plus pending operations; {@code null} takes the tree default
 * @param maxRunningOperationCount running operations; {@code null} takes the tree default
 * @param enableLightweightOperations vanilla operations in a FIFO pool do not count as running
 * @param forbidImmediateOperations operations may only go to subpools
 * @param createEphemeralSubpools operations go to {@code <pool>$<user>}
 * @param ephemeralSubpoolConfig configuration of those subpools
 * @param computePromisedGuaranteeFairShare also compute the fair share within guarantees only
 * @param enableStepFunctionForGangOperations gang operations below get all or nothing;
 *     {@code null} means enabled (the tree switch decides)
 * @param preemption starvation and preemption attributes
 * @param children child pools
 * @param schedulingTagFilter nodes the pool's jobs may run on (a {@code nodes_filter} expression);
 *     empty for every node of the tree
 * @param historicUsageAggregationPeriod with {@code infer_children_weights_from_historic_usage}: the
 *     half-life of the children's usage average that lowers their weights (zero: the last usage);
 *     {@code null} when the pool does not infer its children's weights
 * @param timeLimits how long its jobs may run ({@code default_time_limit}, {@code max_time_limit})
 */
public record PoolConfig(
        String name,
        Double weight,
        PartialResources strongGuaranteeResources,
        PartialResources resourceLimits,
        Double maxShareRatio,
        SchedulingMode mode,
        List<FifoSortParameter> fifoSortParameters,
        FifoPoolSchedulingOrder fifoPoolSchedulingOrder,
        IntegralGuaranteesConfig integralGuarantees,
        Integer maxOperationCount,
        Integer maxRunningOperationCount,
        boolean enableLightweightOperations,
        boolean forbidImmediateOperations,
        boolean createEphemeralSubpools,
        EphemeralSubpoolConfig ephemeralSubpoolConfig,
        boolean computePromisedGuaranteeFairShare,
        Boolean enableStepFunctionForGangOperations,
        PoolPreemptionConfig preemption,
        List<PoolConfig> children,
        String schedulingTagFilter,
        Duration historicUsageAggregationPeriod,
        PoolTimeLimits timeLimits) {

    /** The default FIFO order: weight descending, then start time ascending. */
    public static final List<FifoSortParameter> DEFAULT_FIFO_SORT =
            List.of(FifoSortParameter.WEIGHT, FifoSortParameter.START_TIME);

    public PoolConfig {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("pool name must not be empty");
        }
        strongGuaranteeResources = strongGuaranteeResources == null ? PartialResources.EMPTY : strongGuaranteeResources;
        resourceLimits = resourceLimits == null ? PartialResources.EMPTY : resourceLimits;
        mode = mode == null ? SchedulingMode.FAIR_SHARE : mode;
        fifoSortParameters = List.copyOf(fifoSortParameters == null ? DEFAULT_FIFO_SORT : fifoSortParameters);
        integralGuarantees = integralGuarantees == null ? IntegralGuaranteesConfig.NONE : integralGuarantees;
        preemption = preemption == null ? PoolPreemptionConfig.INHERIT : preemption;
        children = List.copyOf(children == null ? List.of() : children);
        schedulingTagFilter = schedulingTagFilter == null ? "" : schedulingTagFilter.strip();
        timeLimits = timeLimits == null ? PoolTimeLimits.NONE : timeLimits;
    }

    /** A pool without a scheduling tag filter. */
    public PoolConfig(String name, Double weight, PartialResources strongGuaranteeResources, PartialResources resourceLimits,
            Double maxShareRatio, SchedulingMode mode, List<FifoSortParameter> fifoSortParameters,
            FifoPoolSchedulingOrder fifoPoolSchedulingOrder, IntegralGuaranteesConfig integralGuarantees,
            Integer maxOperationCount, Integer maxRunningOperationCount, boolean enableLightweightOperations,
            boolean forbidImmediateOperations, boolean createEphemeralSubpools, EphemeralSubpoolConfig ephemeralSubpoolConfig,
            boolean computePromisedGuaranteeFairShare, Boolean enableStepFunctionForGangOperations,
            PoolPreemptionConfig preemption, List<PoolConfig> children) {
        this(name, weight, strongGuaranteeResources, resourceLimits, maxShareRatio, mode, fifoSortParameters,
                fifoPoolSchedulingOrder, integralGuarantees, maxOperationCount, maxRunningOperationCount,
                enableLightweightOperations, forbidImmediateOperations, createEphemeralSubpools, ephemeralSubpoolConfig,
                computePromisedGuaranteeFairShare, enableStepFunctionForGangOperations, preemption, children, "", null,
                PoolTimeLimits.NONE);
    }

    /** Whether the children's weights are lowered by their recent usage. */
    public boolean infersChildrenWeightsFromHistoricUsage() {
        return historicUsageAggregationPeriod != null;
    }

    /** The weight, 1 when unset. */
    public double effectiveWeight() {
        return weight == null ? 1.0 : weight;
    }

    /** The same pool with other children. */
    public PoolConfig withChildren(List<PoolConfig> newChildren) {
        return new PoolConfig(name, weight, strongGuaranteeResources, resourceLimits, maxShareRatio, mode,
                fifoSortParameters, fifoPoolSchedulingOrder, integralGuarantees, maxOperationCount,
                maxRunningOperationCount, enableLightweightOperations, forbidImmediateOperations,
                createEphemeralSubpools, ephemeralSubpoolConfig, computePromisedGuaranteeFairShare,
                enableStepFunctionForGangOperations, preemption, newChildren, schedulingTagFilter,
                historicUsageAggregationPeriod, timeLimits);
    }

    /** An ephemeral pool: created for operations on demand, removed when its last one leaves. */
    public static PoolConfig ephemeral(String name, EphemeralSubpoolConfig config) {
        return new PoolConfig(name, null, PartialResources.EMPTY, config.resourceLimits(), null, config.mode(), null,
                null, null, config.maxOperationCount(), config.maxRunningOperationCount(), false, false, false, null,
                false, null, null, List.of());
    }

    public static Builder builder(String name) {
        return new Builder(name);
    }

    /** Fluent construction for tests and generated trees. */
    public static final class Builder {
        private final String name;
        private Double weight;
        private PartialResources strongGuarantee = PartialResources.EMPTY;
        private PartialResources limits = PartialResources.EMPTY;
        private Double maxShareRatio;
        private SchedulingMode mode = SchedulingMode.FAIR_SHARE;
        private List<FifoSortParameter> fifoSort = DEFAULT_FIFO_SORT;
        private IntegralGuaranteesConfig integral = IntegralGuaranteesConfig.NONE;
        private Integer maxOperationCount;
        private Integer maxRunningOperationCount;
        private boolean lightweight;
        private boolean computePromised;
        private boolean forbidImmediate;
        private boolean createEphemeral;
        private EphemeralSubpoolConfig ephemeralConfig;
        private FifoPoolSchedulingOrder fifoOrder;
        private PoolPreemptionConfig preemption = PoolPreemptionConfig.INHERIT;
        private final List<PoolConfig> children = new ArrayList<>();
        private String schedulingTagFilter = "";
        private Duration historicUsagePeriod;
        private PoolTimeLimits timeLimits = PoolTimeLimits.NONE;

        private Builder(String name) {
            this.name = name;
        }

        public Builder weight(double value) {
            this.weight = value;
            return this;
        }

        public Builder strongGuarantee(PartialResources value) {
            this.strongGuarantee = value;
            return this;
        }

        public Builder limits(PartialResources value) {
            this.limits = value;
            return this;
        }

        public Builder maxShareRatio(double value) {
            this.maxShareRatio = value;
            return this;
        }

        public Builder fifo() {
            this.mode = SchedulingMode.FIFO;
            return this;
        }

        public Builder fifoSort(List<FifoSortParameter> value) {
            this.fifoSort = value;
            return this;
        }

        public Builder integral(IntegralGuaranteesConfig value) {
            this.integral = value;
            return this;
        }

        public Builder maxOperationCount(int value) {
            this.maxOperationCount = value;
            return this;
        }

        public Builder maxRunningOperationCount(int value) {
            this.maxRunningOperationCount = value;
            return this;
        }

        public Builder lightweight() {
            this.lightweight = true;
            return this;
        }

        public Builder computePromisedGuaranteeFairShare() {
            this.computePromised = true;
            return this;
        }

        public Builder forbidImmediateOperations() {
            this.forbidImmediate = true;
            return this;
        }

        public Builder createEphemeralSubpools(EphemeralSubpoolConfig config) {
            this.createEphemeral = true;
            this.ephemeralConfig = config;
            return this;
        }

        public Builder fifoSchedulingOrder(FifoPoolSchedulingOrder value) {
            this.fifoOrder = value;
            return this;
        }

        public Builder preemption(PoolPreemptionConfig value) {
            this.preemption = value;
            return this;
        }

        public Builder child(PoolConfig child) {
            children.add(child);
            return this;
        }

        public Builder child(Builder child) {
            return child(child.build());
        }

        /** {@code infer_children_weights_from_historic_usage} with this aggregation period. */
        public Builder historicUsageWeights(Duration period) {
            this.historicUsagePeriod = period;
            return this;
        }

        /** {@code default_time_limit} and {@code max_time_limit}; {@code null} for either unset. */
        public Builder timeLimits(Duration defaultLimit, Duration maxLimit) {
            this.timeLimits = new PoolTimeLimits(defaultLimit, maxLimit);
            return this;
        }

        public Builder schedulingTagFilter(String value) {
            this.schedulingTagFilter = value;
            return this;
        }

        public PoolConfig build() {
            return new PoolConfig(name, weight, strongGuarantee, limits, maxShareRatio, mode, fifoSort, fifoOrder,
                    integral, maxOperationCount, maxRunningOperationCount, lightweight, forbidImmediate,
                    createEphemeral, ephemeralConfig, computePromised, null, preemption, children, schedulingTagFilter,
                    historicUsagePeriod, timeLimits);
        }
    }
}
