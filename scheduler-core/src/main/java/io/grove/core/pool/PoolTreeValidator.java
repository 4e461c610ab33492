package io.grove.core.pool;

import io.grove.core.node.NodeFilter;
import io.grove.core.node.NodeTopology;
import io.grove.core.resource.ResourceType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Checks pool trees against the rules of the reference and Grove's own, and reports every problem
 * at once with its pool path. It never stops at the first problem.
 */
public final class PoolTreeValidator {

    /** Pool names: letters, digits, {@code - _ :}. */
    public static final Pattern POOL_NAME = Pattern.compile("[-_a-zA-Z0-9:]+");
    /** Smallest accepted weight: the square root of the double epsilon. */
    public static final double MIN_WEIGHT = Math.sqrt(Math.ulp(1.0));
    /** Largest accepted weight: the inverse of {@link #MIN_WEIGHT}. */
    public static final double MAX_WEIGHT = 1.0 / MIN_WEIGHT;

    private final List<ConfigProblem> problems = new ArrayList<>();

    private PoolTreeValidator() {
    }

    /** Validates a whole file: its trees and the default tree. */
    public static List<ConfigProblem> validate(PoolsConfig config) {
        PoolTreeValidator validator = new PoolTreeValidator();
        if (config.trees().isEmpty()) {
            validator.problem("", "pool_trees", ProblemCode.NO_TREES, "at least one pool tree is required");
        } else if (config.defaultTree() != null && !config.trees().containsKey(config.defaultTree())) {
            validator.problem("", "default_tree", ProblemCode.UNKNOWN_DEFAULT_TREE,
                    "default tree '" + config.defaultTree() + "' is not one of " + config.trees().keySet());
        }
        for (PoolTreeConfig tree : config.trees().values()) {
            validator.checkTree(tree);
        }
        return List.copyOf(validator.problems);
    }

    /** Validates one tree. */
    public static List<ConfigProblem> validate(PoolTreeConfig tree) {
        PoolTreeValidator validator = new PoolTreeValidator();
        validator.checkTree(tree);
        return List.copyOf(validator.problems);
    }

    private void checkTree(PoolTreeConfig tree) {
        String path = tree.name();
        checkTreeSettings(tree, path);
        Map<String, PoolConfig> byName = new HashMap<>();
        Set<String> duplicates = new HashSet<>();
        for (PoolConfig pool : tree.pools()) {
            collectNames(pool, path, byName, duplicates);
        }
        for (PoolConfig pool : tree.pools()) {
            checkPool(tree, pool, null, path + "/" + pool.name(), false);
        }
        checkGuaranteeSums(tree, null, tree.pools(), path);
        Double multiplier = tree.inferWeightFromGuaranteesShareMultiplier();
        if (multiplier != null && !(multiplier >= 1 && multiplier <= MAX_WEIGHT)) {
            problem(path, "infer_weight_from_guarantees_share_multiplier", ProblemCode.VALUE_OUT_OF_RANGE,
                    "must be at least 1, got " + multiplier);
        }
        try {
            NodeFilter.parse(tree.nodesFilter());
        } catch (IllegalArgumentException e) {
            problem(path, "nodes_filter", ProblemCode.INVALID_NODES_FILTER, e.getMessage());
        }
        checkTopologyLevels(tree, path);
        String defaultParent = tree.defaultParentPool();
        if (!PoolTreeConfig.ROOT.equals(defaultParent)) {
            PoolConfig parent = byName.get(defaultParent);
            if (parent == null) {
                problem(path, "default_parent_pool", ProblemCode.UNKNOWN_DEFAULT_PARENT_POOL,
                        "default parent pool '" + defaultParent + "' does not exist in tree '" + tree.name() + "'");
            } else if (parent.mode() == SchedulingMode.FIFO) {
                problem(path, "default_parent_pool", ProblemCode.FIFO_DEFAULT_PARENT_POOL,
                        "default parent pool '" + defaultParent + "' is a FIFO pool; ephemeral pools cannot be created in it");
            }
        }
    }

    /** {@code topology_levels}: names as nodes give them, each once, at most as many as a node may give. */
    private void checkTopologyLevels(PoolTreeConfig tree, String path) {
        List<String> levels = tree.topologyLevels();
        if (levels.size() > NodeTopology.MAX_LEVELS) {
            problem(path, "topology_levels", ProblemCode.VALUE_OUT_OF_RANGE, "at most " + NodeTopology.MAX_LEVELS
                    + " levels, got " + levels.size());
        }
        Set<String> seen = new HashSet<>();
        for (String level : levels) {
            if (level == null || !NodeTopology.LEVEL.matcher(level).matches()) {
                problem(path, "topology_levels", ProblemCode.BAD_VALUE, "level '" + level + "' is not a name (expected "
                        + NodeTopology.LEVEL.pattern() + ", as nodes give them: --topology block=b1,rack=r07)");
            } else if (!seen.add(level)) {
                problem(path, "topology_levels", ProblemCode.BAD_VALUE, "level '" + level + "' is listed twice");
            }
        }
    }

    private void checkTreeSettings(PoolTreeConfig tree, String path) {
        OperationCountSettings counts = tree.counts();
        nonNegative(path, "max_operation_count", counts.maxOperationCount());
        nonNegative(path, "max_running_operation_count", counts.maxRunningOperationCount());
        nonNegative(path, "max_operation_count_per_pool", counts.maxOperationCountPerPool());
        nonNegative(path, "max_running_operation_count_per_pool", counts.maxRunningOperationCountPerPool());
        nonNegative(path, "max_ephemeral_pools_per_user", counts.maxEphemeralPoolsPerUser());
        if (counts.maxOperationCount() < counts.maxRunningOperationCount()) {
            problem(path, "max_operation_count", ProblemCode.OPERATION_COUNT_BELOW_RUNNING_COUNT,
                    "max_operation_count " + counts.maxOperationCount() + " is below max_running_operation_count "
                            + counts.maxRunningOperationCount());
        }
        if (counts.maxOperationCountPerPool() < counts.maxRunningOperationCountPerPool()) {
            problem(path, "max_operation_count_per_pool", ProblemCode.OPERATION_COUNT_BELOW_RUNNING_COUNT,
                    "max_operation_count_per_pool " + counts.maxOperationCountPerPool()
                            + " is below max_running_operation_count_per_pool " + counts.maxRunningOperationCountPerPool());
        }
        StarvationSettings starvation = tree.starvation();
        unitInterval(path, "fair_share_starvation_tolerance", starvation.fairShareStarvationTolerance());
        if (starvation.fairShareAggressiveStarvationTimeout().compareTo(starvation.fairShareStarvationTimeout()) < 0) {
            problem(path, "fair_share_aggressive_starvation_timeout", ProblemCode.INCONSISTENT_STARVATION_TIMEOUTS,
                    "fair_share_aggressive_starvation_timeout " + starvation.fairShareAggressiveStarvationTimeout()
                            + " is shorter than fair_share_starvation_timeout " + starvation.fairShareStarvationTimeout());
        }
        if (starvation.allocationCountPreemptionTimeoutCoefficient() <= 0) {
            problem(path, "allocation_count_preemption_timeout_coefficient", ProblemCode.VALUE_OUT_OF_RANGE,
                    "must be positive, got " + starvation.allocationCountPreemptionTimeoutCoefficient());
        }
        PreemptionSettings preemption = tree.preemption();
        if (preemption.preemptionSatisfactionThreshold() <= 0) {
            problem(path, "preemption_satisfaction_threshold", ProblemCode.VALUE_OUT_OF_RANGE,
                    "must be positive, got " + preemption.preemptionSatisfactionThreshold());
        }
        if (preemption.aggressivePreemptionSatisfactionThreshold() < 0
                || preemption.aggressivePreemptionSatisfactionThreshold() > preemption.preemptionSatisfactionThreshold()) {
            problem(path, "aggressive_preemption_satisfaction_threshold", ProblemCode.INCONSISTENT_PREEMPTION_THRESHOLDS,
                    "must be within [0, preemption_satisfaction_threshold = " + preemption.preemptionSatisfactionThreshold()
                            + "], got " + preemption.aggressivePreemptionSatisfactionThreshold());
        }
        IntegralGuaranteesSettings integral = tree.integralGuarantees();
        if (integral.smoothPeriod().isZero() || integral.smoothPeriod().isNegative()) {
            problem(path, "integral_guarantees.smooth_period", ProblemCode.VALUE_OUT_OF_RANGE,
                    "must be positive, got " + integral.smoothPeriod());
        }
        if (integral.poolCapacitySaturationPeriod().isNegative()) {
            problem(path, "integral_guarantees.pool_capacity_saturation_period", ProblemCode.VALUE_OUT_OF_RANGE,
                    "must not be negative, got " + integral.poolCapacitySaturationPeriod());
        }
        multiplier(path, "integral_guarantees.relaxed_share_multiplier_limit", integral.relaxedShareMultiplierLimit());
    }

    private void collectNames(PoolConfig pool, String parentPath, Map<String, PoolConfig> byName, Set<String> duplicates) {
        String path = parentPath + "/" + pool.name();
        if (!POOL_NAME.matcher(pool.name()).matches()) {
            problem(path, null, ProblemCode.INVALID_POOL_NAME,
                    "pool name '" + pool.name() + "' must consist of letters, digits, '-', '_' and ':'");
        }
        if (byName.putIfAbsent(pool.name(), pool) != null && duplicates.add(pool.name())) {
            problem(path, null, ProblemCode.DUPLICATE_POOL_NAME,
                    "pool name '" + pool.name() + "' is used more than once in the tree; pool names must be unique");
        }
        for (PoolConfig child : pool.children()) {
            collectNames(child, path, byName, duplicates);
        }
    }

    private void checkPool(PoolTreeConfig tree, PoolConfig pool, PoolConfig parent, String path, boolean underIntegral) {
        if (pool.weight() != null && !(pool.weight() >= MIN_WEIGHT && pool.weight() <= MAX_WEIGHT)) {
            problem(path, "weight", ProblemCode.WEIGHT_OUT_OF_RANGE,
                    "weight " + pool.weight() + " is outside [" + MIN_WEIGHT + ", " + MAX_WEIGHT + "]");
        }
        if (pool.maxShareRatio() != null) {
            unitInterval(path, "max_share_ratio", pool.maxShareRatio());
        }
        if (!pool.schedulingTagFilter().isEmpty()) {
            try {
                NodeFilter.parse(pool.schedulingTagFilter());
            } catch (IllegalArgumentException e) {
                problem(path, "scheduling_tag_filter", ProblemCode.INVALID_NODES_FILTER, e.getMessage());
            }
        }
        if (pool.maxOperationCount() != null) {
            nonNegative(path, "max_operation_count", pool.maxOperationCount());
        }
        if (pool.maxRunningOperationCount() != null) {
            nonNegative(path, "max_running_operation_count", pool.maxRunningOperationCount());
        }
        if (pool.maxOperationCount() != null && pool.maxRunningOperationCount() != null
                && pool.maxOperationCount() < pool.maxRunningOperationCount()) {
            problem(path, "max_operation_count", ProblemCode.OPERATION_COUNT_BELOW_RUNNING_COUNT,
                    "max_operation_count " + pool.maxOperationCount() + " is below max_running_operation_count "
                            + pool.maxRunningOperationCount());
        }
        PartialResources guarantee = pool.strongGuaranteeResources();
        if (!guarantee.isEmpty() && !guarantee.isSet(tree.mainResource())) {
            problem(path, "strong_guarantee_resources", ProblemCode.GUARANTEE_WITHOUT_MAIN_RESOURCE,
                    "strong guarantee must include the tree's main resource '" + tree.mainResource().key() + "'");
        }
        checkIntegral(pool, path, underIntegral);
        checkFifo(pool, path);
        if (pool.ephemeralSubpoolConfig() != null && !pool.createEphemeralSubpools()) {
            problem(path, "ephemeral_subpool_config", ProblemCode.EPHEMERAL_CONFIG_WITHOUT_EPHEMERAL_SUBPOOLS,
                    "ephemeral_subpool_config is set but create_ephemeral_subpools is false");
        }
        Double tolerance = pool.preemption().fairShareStarvationTolerance();
        if (tolerance != null) {
            unitInterval(path, "fair_share_starvation_tolerance", tolerance);
        }
        checkGuaranteeSums(tree, pool, pool.children(), path);
        boolean integral = underIntegral || pool.integralGuarantees().isIntegral();
        for (PoolConfig child : pool.children()) {
            checkPool(tree, child, pool, path + "/" + child.name(), integral);
        }
    }

    private void checkIntegral(PoolConfig pool, String path, boolean underIntegral) {
        IntegralGuaranteesConfig integral = pool.integralGuarantees();
        switch (integral.guaranteeType()) {
            case NONE -> checkIntegralParent(pool, path);
            case BURST -> {
                if (integral.resourceFlow().isEmpty()) {
                    problem(path, "integral_guarantees.resource_flow", ProblemCode.INTEGRAL_POOL_WITHOUT_FLOW,
                            "a burst pool needs a resource_flow");
                }
                if (integral.burstGuaranteeResources().isEmpty()) {
                    problem(path, "integral_guarantees.burst_guarantee_resources",
                            ProblemCode.BURST_POOL_WITHOUT_BURST_RESOURCES, "a burst pool needs burst_guarantee_resources");
                }
            }
            case RELAXED -> {
                if (integral.resourceFlow().isEmpty()) {
                    problem(path, "integral_guarantees.resource_flow", ProblemCode.INTEGRAL_POOL_WITHOUT_FLOW,
                            "a relaxed pool needs a resource_flow");
                }
            }
            default -> throw new IllegalStateException("unexpected guarantee type " + integral.guaranteeType());
        }
        if (integral.guaranteeType() == IntegralGuaranteeType.RELAXED && !integral.burstGuaranteeResources().isEmpty()) {
            problem(path, "integral_guarantees.burst_guarantee_resources", ProblemCode.BURST_RESOURCES_ON_NON_BURST_POOL,
                    "burst_guarantee_resources is only allowed with guarantee_type burst (or none, on a parent of"
                            + " integral pools), not relaxed");
        }
        if (integral.relaxedShareMultiplierLimit() != null) {
            if (integral.guaranteeType() != IntegralGuaranteeType.RELAXED) {
                problem(path, "integral_guarantees.relaxed_share_multiplier_limit", ProblemCode.MULTIPLIER_ON_NON_RELAXED_POOL,
                        "relaxed_share_multiplier_limit is only allowed with guarantee_type relaxed");
            }
            multiplier(path, "integral_guarantees.relaxed_share_multiplier_limit", integral.relaxedShareMultiplierLimit());
        }
        if (underIntegral && (integral.isIntegral() || declaresIntegralResources(integral))) {
            problem(path, "integral_guarantees", ProblemCode.NESTED_INTEGRAL_POOLS,
                    "an integral pool cannot be inside another integral pool, nor declare integral resources there");
        }
    }

    private static boolean declaresIntegralResources(IntegralGuaranteesConfig integral) {
        return !integral.resourceFlow().isEmpty() || !integral.burstGuaranteeResources().isEmpty();
    }

    /**
     * A pool of guarantee type none may declare a resource flow and burst guarantee resources: they
     * do not make it integral, they bound its integral descendants. For every resource it declares,
     * what its nearest declaring descendants declare must fit into it (a descendant below a pool that
     * declares nothing counts towards the nearest ancestor that does).
     */
    private void checkIntegralParent(PoolConfig pool, String path) {
        IntegralGuaranteesConfig integral = pool.integralGuarantees();
        checkIntegralSum(pool, path, "resource_flow", integral.resourceFlow(), IntegralGuaranteesConfig::resourceFlow);
        checkIntegralSum(pool, path, "burst_guarantee_resources", integral.burstGuaranteeResources(),
                IntegralGuaranteesConfig::burstGuaranteeResources);
    }

    private void checkIntegralSum(PoolConfig pool, String path, String attribute, PartialResources bound,
            Function<IntegralGuaranteesConfig, PartialResources> declared) {
        for (int r = 0; r < ResourceType.COUNT; r++) {
            ResourceType type = ResourceType.at(r);
            if (!bound.isSet(type)) {
                continue;
            }
            double limit = bound.get(type, 0);
            List<Map.Entry<String, Double>> declarers = new ArrayList<>();
            nearestDeclarers(pool, path, type, declared, declarers);
            double sum = 0;
            for (Map.Entry<String, Double> declarer : declarers) {
                double before = sum;
                sum += declarer.getValue();
                if (sum > limit * (1 + 1e-12)) {
                    problem(path, "integral_guarantees." + attribute, ProblemCode.CHILDREN_INTEGRAL_EXCEED_PARENT,
                            "the pools below declare " + attribute + " " + type.key() + " beyond this pool's "
                                    + fmt(limit) + ": " + declarer.getKey() + " brings the sum from " + fmt(before)
                                    + " to " + fmt(sum));
                    break;
                }
            }
        }
    }

    private static void nearestDeclarers(PoolConfig pool, String path, ResourceType type,
            Function<IntegralGuaranteesConfig, PartialResources> declared,
            List<Map.Entry<String, Double>> out) {
        for (PoolConfig child : pool.children()) {
            String childPath = path + "/" + child.name();
            PartialResources own = declared.apply(child.integralGuarantees());
            if (own.isSet(type)) {
                out.add(Map.entry(childPath, own.get(type, 0)));
            } else {
                nearestDeclarers(child, childPath, type, declared, out);
            }
        }
    }

    private void checkFifo(PoolConfig pool, String path) {
        if (pool.mode() != SchedulingMode.FIFO) {
            return;
        }
        if (!pool.strongGuaranteeResources().isEmpty() || pool.integralGuarantees().isIntegral()) {
            problem(path, "mode", ProblemCode.FIFO_POOL_WITH_GUARANTEES,
                    "a FIFO pool cannot have strong or integral guarantees");
        }
        if (pool.createEphemeralSubpools()) {
            problem(path, "create_ephemeral_subpools", ProblemCode.FIFO_POOL_WITH_EPHEMERAL_SUBPOOLS,
                    "a FIFO pool cannot create ephemeral subpools");
        }
        if (!pool.children().isEmpty()) {
            problem(path, "pools", ProblemCode.FIFO_POOL_WITH_CHILD_POOLS,
                    "a FIFO pool holds operations only; move its child pools elsewhere");
        }
    }

    /** Children's explicit strong guarantees must fit into the parent's (not checked at the root). */
    private void checkGuaranteeSums(PoolTreeConfig tree, PoolConfig parent, List<PoolConfig> children, String path) {
        if (parent == null) {
            return;
        }
        for (int r = 0; r < ResourceType.COUNT; r++) {
            ResourceType type = ResourceType.at(r);
            double sum = 0;
            boolean anySet = false;
            for (PoolConfig child : children) {
                if (child.strongGuaranteeResources().isSet(type)) {
                    anySet = true;
                    sum += child.strongGuaranteeResources().get(type, 0);
                }
            }
            if (!anySet || sum == 0) {
                continue;
            }
            PartialResources parentGuarantee = parent.strongGuaranteeResources();
            if (!parentGuarantee.isSet(type)) {
                if (type == tree.mainResource()) {
                    problem(path, "strong_guarantee_resources", ProblemCode.GUARANTEE_NOT_IN_PARENT,
                            "child pools guarantee " + type.key() + " " + fmt(sum) + " but this pool guarantees none");
                }
                continue;
            }
            double parentValue = parentGuarantee.get(type, 0);
            if (sum > parentValue * (1 + 1e-12)) {
                problem(path, "strong_guarantee_resources", ProblemCode.CHILDREN_GUARANTEES_EXCEED_PARENT,
                        "child pools guarantee " + type.key() + " " + fmt(sum) + " in total, more than this pool's "
                                + fmt(parentValue));
            }
        }
    }

    private void nonNegative(String path, String attribute, int value) {
        if (value < 0) {
            problem(path, attribute, ProblemCode.VALUE_OUT_OF_RANGE, "must not be negative, got " + value);
        }
    }

    private void unitInterval(String path, String attribute, double value) {
        if (!(value >= 0 && value <= 1)) {
            problem(path, attribute, ProblemCode.VALUE_OUT_OF_RANGE, "must be within [0, 1], got " + value);
        }
    }

    private void multiplier(String path, String attribute, double value) {
        if (!(value >= 1 && value <= 10)) {
            problem(path, attribute, ProblemCode.VALUE_OUT_OF_RANGE, "must be within [1, 10], got " + value);
        }
    }

    private void problem(String path, String attribute, ProblemCode code, String message) {
        problems.add(new ConfigProblem(path, attribute, code, message));
    }

    private static String fmt(double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
    }
}
