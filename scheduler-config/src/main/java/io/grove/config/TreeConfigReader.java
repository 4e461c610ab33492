package io.grove.config;

import io.grove.config.yaml.MapReader;
import io.grove.config.yaml.Sizes;
import io.grove.core.pool.AccessControl;
import io.grove.core.pool.EphemeralSubpoolConfig;
import io.grove.core.pool.FifoPoolSchedulingOrder;
import io.grove.core.pool.FifoSortParameter;
import io.grove.core.pool.GangReservations;
import io.grove.core.pool.IntegralGuaranteeType;
import io.grove.core.pool.IntegralGuaranteesConfig;
import io.grove.core.pool.IntegralGuaranteesSettings;
import io.grove.core.pool.JobDefaults;
import io.grove.core.pool.OperationCountSettings;
import io.grove.core.pool.PoolConfig;
import io.grove.core.pool.PoolPreemptionConfig;
import io.grove.core.pool.PoolTimeLimits;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.pool.PreemptionSettings;
import io.grove.core.pool.VictimOrder;
import io.grove.core.pool.ProblemCode;
import io.grove.core.pool.SchedulingMode;
import io.grove.core.pool.StarvationSettings;
import io.grove.core.resource.ResourceType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads one pool tree (its settings and its pools) from YAML into {@link PoolTreeConfig}, with
 * reference defaults for everything unset. Problems go to the reader's problem list.
 */
public final class TreeConfigReader {

    private TreeConfigReader() {
    }

    /** Reads the tree's own keys and its pools. Leaves other keys of {@code tree} to the caller. */
    public static PoolTreeConfig read(String name, MapReader tree) {
        return read(name, tree, new HashMap<>());
    }

    /** As {@link #read(String, MapReader)}, collecting each pool's {@code acl} into {@code acls}. */
    public static PoolTreeConfig read(String name, MapReader tree,
            Map<String, AccessControl.PoolAccess> acls) {
        OperationCountSettings countDefaults = OperationCountSettings.DEFAULT;
        OperationCountSettings counts = new OperationCountSettings(
                or(tree.integer("max_operation_count"), countDefaults.maxOperationCount()),
                or(tree.integer("max_running_operation_count"), countDefaults.maxRunningOperationCount()),
                or(tree.integer("max_operation_count_per_pool"), countDefaults.maxOperationCountPerPool()),
                or(tree.integer("max_running_operation_count_per_pool"), countDefaults.maxRunningOperationCountPerPool()),
                or(tree.integer("max_ephemeral_pools_per_user"), countDefaults.maxEphemeralPoolsPerUser()),
                or(tree.bool("forbid_immediate_operations_in_root"), countDefaults.forbidImmediateOperationsInRoot()));
        StarvationSettings sd = StarvationSettings.DEFAULT;
        StarvationSettings starvation = new StarvationSettings(
                or(tree.duration("fair_share_starvation_timeout", "fair_share_preemption_timeout"), sd.fairShareStarvationTimeout()),
                or(tree.duration("fair_share_aggressive_starvation_timeout"), sd.fairShareAggressiveStarvationTimeout()),
                or(tree.number("fair_share_starvation_tolerance"), sd.fairShareStarvationTolerance()),
                or(tree.bool("enable_aggressive_starvation"), sd.enableAggressiveStarvation()),
                or(tree.bool("enable_pool_starvation"), sd.enablePoolStarvation()),
                or(tree.number("allocation_count_preemption_timeout_coefficient", "job_count_preemption_timeout_coefficient"),
                        sd.allocationCountPreemptionTimeoutCoefficient()));
        PreemptionSettings pd = PreemptionSettings.DEFAULT;
        PreemptionSettings preemption = new PreemptionSettings(
                or(tree.number("preemption_satisfaction_threshold"), pd.preemptionSatisfactionThreshold()),
                or(tree.number("aggressive_preemption_satisfaction_threshold"), pd.aggressivePreemptionSatisfactionThreshold()),
                or(tree.resources("non_preemptible_resource_usage_threshold"), pd.nonPreemptibleResourceUsageThreshold()),
                or(tree.duration("preemptive_scheduling_backoff"), pd.preemptiveSchedulingBackoff()),
                or(tree.bool("preemption_check_starvation"), pd.preemptionCheckStarvation()),
                or(tree.bool("preemption_check_satisfaction"), pd.preemptionCheckSatisfaction()),
                or(tree.bool("enable_conditional_preemption"), pd.enableConditionalPreemption()),
                or(tree.duration("allocation_preemption_timeout", "job_interrupt_timeout"), pd.allocationPreemptionTimeout()),
                or(tree.duration("allocation_graceful_preemption_timeout", "job_graceful_interrupt_timeout"),
                        pd.allocationGracefulPreemptionTimeout()),
                or(tree.bool("allow_aggressive_preemption_for_gang_operations"), pd.allowAggressivePreemptionForGangOperations()),
                or(tree.duration("min_job_runtime_before_preemption"), pd.minJobRuntimeBeforePreemption()),
                or(tree.enumValue("preemption_victim_order", VictimOrder.class), pd.victimOrder()),
                gangReservations(tree));
        IntegralGuaranteesSettings integral = readIntegralSettings(tree.map("integral_guarantees"));
        ResourceType mainResource = null;
        String main = tree.string("main_resource");
        if (main != null) {
            mainResource = ResourceType.fromKey(main).orElse(null);
            if (mainResource == null) {
                tree.problems().add(tree.path(), "main_resource", ProblemCode.BAD_VALUE,
                        "'" + main + "' is not a resource (expected one of user_slots, cpu, gpu, memory, network)",
                        tree.problems().lineOf(tree.path(), "main_resource"));
            }
        }
        return new PoolTreeConfig(
                name,
                tree.string("nodes_filter", "node_tag_filter"),
                mainResource,
                tree.string("default_parent_pool"),
                tree.enumValue("fifo_pool_scheduling_order", FifoPoolSchedulingOrder.class),
                or(tree.bool("enable_step_function_for_gang_operations"), false),
                counts,
                starvation,
                preemption,
                integral,
                readPools(tree, acls),
                tree.number("infer_weight_from_guarantees_share_multiplier",
                        "infer_weight_from_strong_guarantee_share_multiplier", "infer_weight_from_min_share_ratio_multiplier"),
                jobDefaults(tree),
                tree.strings("topology_levels"));
    }

    /** {@code gang_reservation_timeout} and {@code max_gang_reservations}. */
    private static GangReservations gangReservations(MapReader tree) {
        GangReservations d = GangReservations.DEFAULT;
        Duration timeout = or(tree.duration("gang_reservation_timeout"), d.timeout());
        Integer max = tree.integer("max_gang_reservations");
        if (timeout.isNegative()) {
            tree.problems().add(tree.path(), "gang_reservation_timeout", ProblemCode.BAD_VALUE,
                    "must not be negative", tree.problems().lineOf(tree.path(), "gang_reservation_timeout"));
            timeout = d.timeout();
        }
        if (max != null && (max < 0 || max > GangReservations.MAX)) {
            tree.problems().add(tree.path(), "max_gang_reservations", ProblemCode.BAD_VALUE,
                    "must be from 0 (off) to " + GangReservations.MAX + ", got " + max,
                    tree.problems().lineOf(tree.path(), "max_gang_reservations"));
            max = null;
        }
        return new GangReservations(timeout, max == null ? d.max() : max);
    }

    /** {@code default_job_memory} and {@code default_job_disk_space}: what nodes hold jobs that order none to. */
    private static JobDefaults jobDefaults(MapReader tree) {
        Long memory = Sizes.bytes(tree, "default_job_memory", 1L << 50, "1 PiB");
        Long disk = Sizes.bytes(tree, "default_job_disk_space", 1L << 50, "1 PiB");
        return new JobDefaults(memory == null || memory < 0 ? 0 : memory, disk == null || disk < 0 ? 0 : disk);
    }

    private static IntegralGuaranteesSettings readIntegralSettings(MapReader reader) {
        IntegralGuaranteesSettings d = IntegralGuaranteesSettings.DEFAULT;
        if (reader == null) {
            return d;
        }
        IntegralGuaranteesSettings settings = new IntegralGuaranteesSettings(
                or(reader.duration("smooth_period"), d.smoothPeriod()),
                or(reader.duration("pool_capacity_saturation_period"), d.poolCapacitySaturationPeriod()),
                or(reader.number("relaxed_share_multiplier_limit"), d.relaxedShareMultiplierLimit()),
                or(reader.bool("should_distribute_free_volume_among_children"), d.shouldDistributeFreeVolumeAmongChildren()));
        reader.finish();
        return settings;
    }

    private static List<PoolConfig> readPools(MapReader parent,
            Map<String, AccessControl.PoolAccess> acls) {
        List<PoolConfig> pools = new ArrayList<>();
        for (Map.Entry<String, MapReader> entry : parent.namedMaps("pools").entrySet()) {
            pools.add(readPool(entry.getKey(), entry.getValue(), acls));
        }
        return pools;
    }

    /** A pool's {@code acl: {submit: [...], administer: [...]}}; absent lists are inherited. */
    private static void readAcl(String name, MapReader pool, Map<String, AccessControl.PoolAccess> acls) {
        MapReader acl = pool.map("acl");
        if (acl == null) {
            return;
        }
        List<String> submit = acl.has("submit") ? acl.strings("submit") : null;
        List<String> administer = acl.has("administer") ? acl.strings("administer") : null;
        acl.finish();
        acls.put(name, new AccessControl.PoolAccess(submit, administer));
    }

    private static PoolConfig readPool(String name, MapReader pool,
            Map<String, AccessControl.PoolAccess> acls) {
        readAcl(name, pool, acls);
        PoolPreemptionConfig preemption = new PoolPreemptionConfig(
                pool.duration("fair_share_starvation_timeout", "fair_share_preemption_timeout"),
                pool.number("fair_share_starvation_tolerance"),
                pool.resources("non_preemptible_resource_usage_threshold"),
                pool.bool("enable_aggressive_starvation"),
                pool.bool("allow_aggressive_preemption", "allow_aggressive_starvation_preemption"),
                pool.bool("allow_normal_preemption"),
                pool.duration("min_job_runtime_before_preemption"));
        PoolConfig config = new PoolConfig(
                name,
                pool.number("weight"),
                pool.resources("strong_guarantee_resources", "min_share_resources"),
                pool.resources("resource_limits"),
                pool.number("max_share_ratio"),
                pool.enumValue("mode", SchedulingMode.class),
                pool.enumList("fifo_sort_parameters", FifoSortParameter.class,
                        Map.of("pending_allocation_count", FifoSortParameter.PENDING_JOB_COUNT)),
                pool.enumValue("fifo_pool_scheduling_order", FifoPoolSchedulingOrder.class),
                readIntegral(pool.map("integral_guarantees")),
                pool.integer("max_operation_count"),
                pool.integer("max_running_operation_count"),
                or(pool.bool("enable_lightweight_operations"), false),
                or(pool.bool("forbid_immediate_operations"), false),
                or(pool.bool("create_ephemeral_subpools"), false),
                readEphemeral(pool.map("ephemeral_subpool_config")),
                or(pool.bool("compute_promised_guarantee_fair_share"), false),
                pool.bool("enable_step_function_for_gang_operations"),
                preemption,
                readPools(pool, acls),
                pool.string("scheduling_tag_filter", "scheduling_tag"),
                historicUsagePeriod(pool),
                timeLimits(pool));
        pool.finish();
        return config;
    }

    /** {@code default_time_limit} and {@code max_time_limit}: positive, the default not above the maximum. */
    private static PoolTimeLimits timeLimits(MapReader pool) {
        Duration defaultLimit = positive(pool, "default_time_limit");
        Duration max = positive(pool, "max_time_limit");
        if (defaultLimit != null && max != null && defaultLimit.compareTo(max) > 0) {
            pool.problem("default_time_limit", ProblemCode.BAD_VALUE, "is above max_time_limit ("
                    + PoolTimeLimits.text(defaultLimit) + " > " + PoolTimeLimits.text(max) + ")");
            return PoolTimeLimits.NONE;
        }
        return new PoolTimeLimits(defaultLimit, max);
    }

    private static Duration positive(MapReader pool, String key) {
        Duration value = pool.duration(key);
        if (value != null && (value.isZero() || value.isNegative())) {
            pool.problem(key, ProblemCode.BAD_VALUE, "must be positive, got " + pool.rawScalar(key));
            return null;
        }
        return value;
    }

    /** The aggregation period where {@code infer_children_weights_from_historic_usage} is on, else {@code null}. */
    private static Duration historicUsagePeriod(MapReader pool) {
        Boolean infer = pool.bool("infer_children_weights_from_historic_usage");
        Duration period = pool.duration("historic_usage_aggregation_period");
        if (infer == null || !infer) {
            return null;
        }
        return period == null ? Duration.ZERO : period;
    }

    private static IntegralGuaranteesConfig readIntegral(MapReader reader) {
        if (reader == null) {
            return null;
        }
        IntegralGuaranteeType type = reader.enumValue("guarantee_type", IntegralGuaranteeType.class);
        IntegralGuaranteesConfig config = new IntegralGuaranteesConfig(
                type == null ? IntegralGuaranteeType.NONE : type,
                reader.resources("resource_flow"),
                reader.resources("burst_guarantee_resources"),
                reader.number("relaxed_share_multiplier_limit"),
                or(reader.bool("can_accept_free_volume"), true),
                reader.bool("should_distribute_free_volume_among_children"));
        reader.finish();
        return config;
    }

    private static EphemeralSubpoolConfig readEphemeral(MapReader reader) {
        if (reader == null) {
            return null;
        }
        EphemeralSubpoolConfig config = new EphemeralSubpoolConfig(
                reader.enumValue("mode", SchedulingMode.class),
                reader.integer("max_running_operation_count"),
                reader.integer("max_operation_count"),
                reader.resources("resource_limits"));
        reader.finish();
        return config;
    }

    private static <T> T or(T value, T fallback) {
        return value == null ? fallback : value;
    }
}
