package io.grove.core.pool;

import io.grove.core.resource.ResourceType;
import java.util.List;

/**
 * One pool tree as configured (see docs/pools.md#tree-attributes).
 *
 * @param name the tree's name
 * @param nodesFilter boolean expression over node tags; empty selects every node
 * @param mainResource guarantees must name it; other resources are inferred from it
 * @param defaultParentPool where ephemeral per-user pools are created; {@link #ROOT} for the root
 * @param fifoPoolSchedulingOrder default heartbeat order in FIFO pools
 * @param enableStepFunctionForGangOperations gang operations get all of their demand or nothing
 * @param counts operation-count limits
 * @param starvation starvation settings
 * @param preemption preemption settings
 * @param integralGuarantees integral guarantee settings
 * @param pools the root's child pools
 * @param inferWeightFromGuaranteesShareMultiplier when set (at least 1), a pool without a weight of
 *     its own gets {@code multiplier × (its largest strong guarantee share + its subtree's flow
 *     ratio) / (the same of its parent)}; {@code null}: weight 1
 * @param jobDefaults the memory and disk limits of jobs that order none, sent to the nodes with each start
 * @param topologyLevels the levels of network topology the tree knows, widest first
 *     ({@code [block, rack]}); the scheduler keeps each level's domains of the tree's nodes
 */
public record PoolTreeConfig(
        String name,
        String nodesFilter,
        ResourceType mainResource,
        String defaultParentPool,
        FifoPoolSchedulingOrder fifoPoolSchedulingOrder,
        boolean enableStepFunctionForGangOperations,
        OperationCountSettings counts,
        StarvationSettings starvation,
        PreemptionSettings preemption,
        IntegralGuaranteesSettings integralGuarantees,
        List<PoolConfig> pools,
        Double inferWeightFromGuaranteesShareMultiplier,
        JobDefaults jobDefaults,
        List<String> topologyLevels) {

    /** Name of the root pool of every tree. */
    public static final String ROOT = "<Root>";

    public PoolTreeConfig {
        nodesFilter = nodesFilter == null ? "" : nodesFilter;
        mainResource = mainResource == null ? ResourceType.CPU : mainResource;
        defaultParentPool = defaultParentPool == null ? ROOT : defaultParentPool;
        fifoPoolSchedulingOrder = fifoPoolSchedulingOrder == null ? FifoPoolSchedulingOrder.SATISFACTION : fifoPoolSchedulingOrder;
        counts = counts == null ? OperationCountSettings.DEFAULT : counts;
        starvation = starvation == null ? StarvationSettings.DEFAULT : starvation;
        preemption = preemption == null ? PreemptionSettings.DEFAULT : preemption;
        integralGuarantees = integralGuarantees == null ? IntegralGuaranteesSettings.DEFAULT : integralGuarantees;
        pools = List.copyOf(pools == null ? List.of() : pools);
        jobDefaults = jobDefaults == null ? JobDefaults.NODE : jobDefaults;
        topologyLevels = List.copyOf(topologyLevels == null ? List.of() : topologyLevels);
    }

    /** A tree that knows no topology levels. */
    public PoolTreeConfig(String name, String nodesFilter, ResourceType mainResource, String defaultParentPool,
            FifoPoolSchedulingOrder fifoPoolSchedulingOrder, boolean enableStepFunctionForGangOperations,
            OperationCountSettings counts, StarvationSettings starvation, PreemptionSettings preemption,
            IntegralGuaranteesSettings integralGuarantees, List<PoolConfig> pools,
            Double inferWeightFromGuaranteesShareMultiplier, JobDefaults jobDefaults) {
        this(name, nodesFilter, mainResource, defaultParentPool, fifoPoolSchedulingOrder,
                enableStepFunctionForGangOperations, counts, starvation, preemption, integralGuarantees, pools,
                inferWeightFromGuaranteesShareMultiplier, jobDefaults, List.of());
    }

    /** A tree whose jobs get the nodes' own defaults. */
    public PoolTreeConfig(String name, String nodesFilter, ResourceType mainResource, String defaultParentPool,
            FifoPoolSchedulingOrder fifoPoolSchedulingOrder, boolean enableStepFunctionForGangOperations,
            OperationCountSettings counts, StarvationSettings starvation, PreemptionSettings preemption,
            IntegralGuaranteesSettings integralGuarantees, List<PoolConfig> pools,
            Double inferWeightFromGuaranteesShareMultiplier) {
        this(name, nodesFilter, mainResource, defaultParentPool, fifoPoolSchedulingOrder,
                enableStepFunctionForGangOperations, counts, starvation, preemption, integralGuarantees, pools,
                inferWeightFromGuaranteesShareMultiplier, JobDefaults.NODE);
    }

    /** A tree that does not infer weights from guarantees. */
    public PoolTreeConfig(String name, String nodesFilter, ResourceType mainResource, String defaultParentPool,
            FifoPoolSchedulingOrder fifoPoolSchedulingOrder, boolean enableStepFunctionForGangOperations,
            OperationCountSettings counts, StarvationSettings starvation, PreemptionSettings preemption,
            IntegralGuaranteesSettings integralGuarantees, List<PoolConfig> pools) {
        this(name, nodesFilter, mainResource, defaultParentPool, fifoPoolSchedulingOrder,
                enableStepFunctionForGangOperations, counts, starvation, preemption, integralGuarantees, pools, null);
    }

    /** A tree with every setting at its default. */
    public static PoolTreeConfig withPools(String name, List<PoolConfig> pools) {
        return new PoolTreeConfig(name, null, null, null, null, false, null, null, null, null, pools);
    }

    public PoolTreeConfig withIntegralGuarantees(IntegralGuaranteesSettings settings) {
        return new PoolTreeConfig(name, nodesFilter, mainResource, defaultParentPool, fifoPoolSchedulingOrder,
                enableStepFunctionForGangOperations, counts, starvation, preemption, settings, pools,
                inferWeightFromGuaranteesShareMultiplier, jobDefaults, topologyLevels);
    }

    /** The same tree with other top-level pools. */
    public PoolTreeConfig withPools(List<PoolConfig> newPools) {
        return new PoolTreeConfig(name, nodesFilter, mainResource, defaultParentPool, fifoPoolSchedulingOrder,
                enableStepFunctionForGangOperations, counts, starvation, preemption, integralGuarantees, newPools,
                inferWeightFromGuaranteesShareMultiplier, jobDefaults, topologyLevels);
    }

    public PoolTreeConfig withStepFunctionForGangOperations(boolean enabled) {
        return new PoolTreeConfig(name, nodesFilter, mainResource, defaultParentPool, fifoPoolSchedulingOrder,
                enabled, counts, starvation, preemption, integralGuarantees, pools, inferWeightFromGuaranteesShareMultiplier,
                jobDefaults, topologyLevels);
    }

    public PoolTreeConfig withInferredWeights(Double multiplier) {
        return new PoolTreeConfig(name, nodesFilter, mainResource, defaultParentPool, fifoPoolSchedulingOrder,
                enableStepFunctionForGangOperations, counts, starvation, preemption, integralGuarantees, pools, multiplier,
                jobDefaults, topologyLevels);
    }

    /** The same tree with other defaults for jobs that order no memory or disk. */
    public PoolTreeConfig withJobDefaults(JobDefaults defaults) {
        return new PoolTreeConfig(name, nodesFilter, mainResource, defaultParentPool, fifoPoolSchedulingOrder,
                enableStepFunctionForGangOperations, counts, starvation, preemption, integralGuarantees, pools,
                inferWeightFromGuaranteesShareMultiplier, defaults, topologyLevels);
    }

    /** The same tree knowing {@code levels} of topology, widest first. */
    public PoolTreeConfig withTopologyLevels(List<String> levels) {
        return new PoolTreeConfig(name, nodesFilter, mainResource, defaultParentPool, fifoPoolSchedulingOrder,
                enableStepFunctionForGangOperations, counts, starvation, preemption, integralGuarantees, pools,
                inferWeightFromGuaranteesShareMultiplier, jobDefaults, levels);
    }
}
