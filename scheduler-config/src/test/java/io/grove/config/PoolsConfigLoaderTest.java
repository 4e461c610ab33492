package io.grove.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.core.pool.ConfigProblem;
import io.grove.core.pool.IntegralGuaranteeType;
import io.grove.core.pool.PoolConfig;
import io.grove.core.pool.PoolTree;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.pool.PoolTimeLimits;
import io.grove.core.pool.PoolsConfig;
import io.grove.core.pool.ProblemCode;
import io.grove.core.pool.SchedulingMode;
import io.grove.core.resource.ResourceType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class PoolsConfigLoaderTest {

    static final Path CONFIG = Path.of("..", "config");

    /** One expected problem: its code, where, and on which line. */
    record Expected(ProblemCode code, String path, String attribute, int line) {
    }

    /** An invalid example and every problem it must produce. */
    record Case(String file, List<Expected> problems) {
        @Override
        public String toString() {
            return file;
        }
    }

    static Stream<Case> invalidExamples() {
        return Stream.of(
                new Case("unknown-key.yaml", List.of(new Expected(ProblemCode.UNKNOWN_KEY, "physical/prod", "wieght", 6))),
                new Case("duplicate-pool-name.yaml", List.of(
                        new Expected(ProblemCode.DUPLICATE_POOL_NAME, "physical/research/etl", null, 10))),
                new Case("bad-units.yaml", List.of(
                        new Expected(ProblemCode.BAD_VALUE, "physical/prod", "strong_guarantee_resources.cpu", 6),
                        new Expected(ProblemCode.BAD_VALUE, "physical/prod", "strong_guarantee_resources.memory", 6))),
                new Case("children-exceed-parent.yaml", List.of(new Expected(
                        ProblemCode.CHILDREN_GUARANTEES_EXCEED_PARENT, "physical/prod", "strong_guarantee_resources", 6))),
                new Case("operation-counts.yaml", List.of(new Expected(
                        ProblemCode.OPERATION_COUNT_BELOW_RUNNING_COUNT, "physical/prod", "max_operation_count", 6))),
                new Case("burst-on-relaxed.yaml", List.of(new Expected(ProblemCode.BURST_RESOURCES_ON_NON_BURST_POOL,
                        "physical/analytics", "integral_guarantees.burst_guarantee_resources", 9))),
                new Case("integral-children-exceed-parent.yaml", List.of(new Expected(
                        ProblemCode.CHILDREN_INTEGRAL_EXCEED_PARENT, "physical/research", "integral_guarantees.resource_flow", 8))),
                new Case("bad-tag-filter.yaml", List.of(new Expected(
                        ProblemCode.INVALID_NODES_FILTER, "physical/train", "scheduling_tag_filter", 6))),
                new Case("fifo-with-guarantee.yaml", List.of(
                        new Expected(ProblemCode.FIFO_POOL_WITH_GUARANTEES, "physical/queue", "mode", 6),
                        new Expected(ProblemCode.FIFO_POOL_WITH_EPHEMERAL_SUBPOOLS, "physical/queue", "create_ephemeral_subpools", 8),
                        new Expected(ProblemCode.FIFO_POOL_WITH_CHILD_POOLS, "physical/queue", "pools", 9))),
                new Case("default-parent.yaml", List.of(
                        new Expected(ProblemCode.UNKNOWN_DEFAULT_PARENT_POOL, "physical", "default_parent_pool", 4),
                        new Expected(ProblemCode.FIFO_DEFAULT_PARENT_POOL, "other", "default_parent_pool", 8))),
                new Case("weight-range.yaml", List.of(
                        new Expected(ProblemCode.WEIGHT_OUT_OF_RANGE, "physical/tiny", "weight", 5),
                        new Expected(ProblemCode.WEIGHT_OUT_OF_RANGE, "physical/huge", "weight", 6),
                        new Expected(ProblemCode.INVALID_POOL_NAME, "physical/bad name", null, 7))),
                new Case("wrong-types.yaml", List.of(
                        new Expected(ProblemCode.BAD_VALUE, "physical", "fair_share_starvation_timeout", 4),
                        new Expected(ProblemCode.WRONG_TYPE, "physical/prod", "weight", 7),
                        new Expected(ProblemCode.WRONG_TYPE, "physical/prod", "resource_limits", 8))),
                new Case("yaml-syntax.yaml", List.of(new Expected(ProblemCode.YAML_SYNTAX, "", null, 6))),
                new Case("duplicate-key.yaml", List.of(new Expected(ProblemCode.DUPLICATE_KEY, "", "pool_trees.physical.pools.prod", 8))),
                new Case("alias-cycle.yaml", List.of(new Expected(ProblemCode.RECURSIVE_ALIAS, "",
                        "pool_trees.physical.pools.prod.pools", 4))),
                new Case("guarantee-without-main-resource.yaml", List.of(new Expected(
                        ProblemCode.GUARANTEE_WITHOUT_MAIN_RESOURCE, "physical/prod", "strong_guarantee_resources", 6))),
                new Case("nested-integral.yaml", List.of(new Expected(
                        ProblemCode.NESTED_INTEGRAL_POOLS, "physical/burst/inner", "integral_guarantees", 9))),
                new Case("many-problems.yaml", List.of(
                        new Expected(ProblemCode.UNKNOWN_DEFAULT_TREE, "", "default_tree", 2),
                        new Expected(ProblemCode.VALUE_OUT_OF_RANGE, "physical", "fair_share_starvation_tolerance", 5),
                        new Expected(ProblemCode.INCONSISTENT_PREEMPTION_THRESHOLDS, "physical",
                                "aggressive_preemption_satisfaction_threshold", 6),
                        new Expected(ProblemCode.VALUE_OUT_OF_RANGE, "physical/prod", "max_share_ratio", 9),
                        new Expected(ProblemCode.BURST_RESOURCES_ON_NON_BURST_POOL, "physical/prod",
                                "integral_guarantees.burst_guarantee_resources", 10),
                        new Expected(ProblemCode.EPHEMERAL_CONFIG_WITHOUT_EPHEMERAL_SUBPOOLS, "physical/research",
                                "ephemeral_subpool_config", 12))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidExamples")
    void everyProblemIsReportedWithPathAndLine(Case example) {
        LoadResult<PoolsConfig> result = PoolsConfigLoader.load(CONFIG.resolve("invalid").resolve(example.file()));
        assertTrue(!result.ok(), example.file() + " must not load");
        List<Expected> actual = result.problems().stream()
                .map(p -> new Expected(p.code(), p.path(), p.attribute(), p.line()))
                .toList();
        assertEquals(example.problems(), actual, result.describe());
        for (ConfigProblem problem : result.problems()) {
            String text = problem.describe(result.source());
            assertTrue(text.contains(example.file() + ":" + problem.line()), text);
        }
    }

    @Test
    void everyInvalidExampleIsCovered() throws Exception {
        List<String> files;
        try (Stream<Path> listing = Files.list(CONFIG.resolve("invalid"))) {
            files = listing.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".yaml")).sorted().toList();
        }
        assertEquals(files, invalidExamples().map(Case::file).sorted().toList());
    }

    @Test
    void theExampleFileLoadsWithItsValues() {
        LoadResult<PoolsConfig> result = PoolsConfigLoader.load(CONFIG.resolve("pools.yaml"));
        assertTrue(result.ok(), result.describe());
        PoolsConfig config = result.value();
        assertEquals("physical", config.defaultTree());
        PoolTreeConfig physical = config.trees().get("physical");
        assertEquals("!gpu", physical.nodesFilter());
        assertEquals("research", physical.defaultParentPool());
        assertEquals(Duration.ofSeconds(30), physical.starvation().fairShareStarvationTimeout());
        assertEquals(Duration.ofDays(1), physical.integralGuarantees().poolCapacitySaturationPeriod());
        assertEquals(20, physical.counts().maxRunningOperationCountPerPool());
        PoolTree tree = PoolTree.of(physical);
        PoolConfig prod = tree.pool("prod").orElseThrow().config();
        assertEquals(40.0, prod.strongGuaranteeResources().get(ResourceType.CPU, 0));
        assertEquals(80.0 * (1L << 30), prod.strongGuaranteeResources().get(ResourceType.MEMORY, 0));
        assertEquals("physical/prod/etl", tree.pool("etl").orElseThrow().path());
        assertEquals(IntegralGuaranteeType.BURST, tree.pool("burst").orElseThrow().config().integralGuarantees().guaranteeType());
        PoolConfig tiny = tree.pool("tiny").orElseThrow().config();
        assertEquals(SchedulingMode.FIFO, tiny.mode());
        assertTrue(tiny.enableLightweightOperations());
        assertNotNull(tree.pool("research").orElseThrow().config().ephemeralSubpoolConfig());
        assertEquals(ResourceType.GPU, config.trees().get("gpu").mainResource());
    }

    @Test
    void defaultsFollowTheReference() {
        LoadResult<PoolsConfig> result = PoolsConfigLoader.load("pool_trees: {t: {pools: {a: {}}}}", "inline");
        assertTrue(result.ok(), result.describe());
        PoolTreeConfig tree = result.value().trees().get("t");
        assertEquals("t", result.value().defaultTree());
        assertEquals(ResourceType.CPU, tree.mainResource());
        assertEquals(PoolTreeConfig.ROOT, tree.defaultParentPool());
        assertEquals(50_000, tree.counts().maxOperationCount());
        assertEquals(2_000, tree.counts().maxRunningOperationCount());
        assertEquals(50, tree.counts().maxOperationCountPerPool());
        assertEquals(50, tree.counts().maxRunningOperationCountPerPool());
        assertEquals(1, tree.counts().maxEphemeralPoolsPerUser());
        assertEquals(0.8, tree.starvation().fairShareStarvationTolerance());
        assertEquals(Duration.ofSeconds(120), tree.starvation().fairShareAggressiveStarvationTimeout());
        assertEquals(1.0, tree.preemption().preemptionSatisfactionThreshold());
        assertEquals(0.2, tree.preemption().aggressivePreemptionSatisfactionThreshold());
        assertEquals(Duration.ofMinutes(1), tree.integralGuarantees().smoothPeriod());
        assertEquals(3.0, tree.integralGuarantees().relaxedShareMultiplierLimit());
        PoolConfig pool = tree.pools().get(0);
        assertEquals(1.0, pool.effectiveWeight());
        assertEquals(SchedulingMode.FAIR_SHARE, pool.mode());
        assertTrue(pool.integralGuarantees().canAcceptFreeVolume());
    }

    @Test
    void aTreeMaySetTheMemoryAndDiskOfJobsThatOrderNone() {
        LoadResult<PoolsConfig> result = PoolsConfigLoader.load(
                "pool_trees: {t: {default_job_memory: 512Mi, default_job_disk_space: 20Gi, pools: {a: {}}}}", "inline");
        assertTrue(result.ok(), result.describe());
        assertEquals(new io.grove.core.pool.JobDefaults(512L << 20, 20L << 30), result.value().trees().get("t").jobDefaults());
        assertEquals(io.grove.core.pool.JobDefaults.NODE, PoolsConfigLoader.load("pool_trees: {t: {pools: {a: {}}}}", "inline")
                .value().trees().get("t").jobDefaults(), "unset: the nodes' own");
        String bad = PoolsConfigLoader.load("pool_trees: {t: {default_job_memory: lots, pools: {a: {}}}}", "inline").describe();
        assertTrue(bad.contains("default_job_memory"), bad);
    }

    @Test
    void aTreeDeclaresTheTopologyLevelsItKnowsWidestFirst() {
        LoadResult<PoolsConfig> result = PoolsConfigLoader.load(
                "pool_trees: {t: {topology_levels: [block, rack], pools: {a: {}}}}", "inline");
        assertTrue(result.ok(), result.describe());
        assertEquals(List.of("block", "rack"), result.value().trees().get("t").topologyLevels());
        assertEquals(List.of(), PoolsConfigLoader.load("pool_trees: {t: {pools: {a: {}}}}", "inline").value().trees()
                .get("t").topologyLevels(), "unset: none");
        String bad = PoolsConfigLoader.load("pool_trees: {t: {topology_levels: [Block, rack, rack], pools: {a: {}}}}",
                "inline").describe();
        assertTrue(bad.contains("topology_levels") && bad.contains("level 'Block' is not a name")
                && bad.contains("level 'rack' is listed twice"), bad);
        String notAList = PoolsConfigLoader.load("pool_trees: {t: {topology_levels: rack, pools: {a: {}}}}", "inline")
                .describe();
        assertTrue(notAList.contains("topology_levels") && notAList.contains("expected a list"), notAList);
    }

    @Test
    void aTreeSetsWhenStarvingGangsGetReservationsAndHowMany() {
        LoadResult<PoolsConfig> result = PoolsConfigLoader.load("pool_trees: {t: {gang_reservation_timeout: 90s, "
                + "max_gang_reservations: 2, pools: {a: {}}}}", "inline");
        assertTrue(result.ok(), result.describe());
        assertEquals(new io.grove.core.pool.GangReservations(java.time.Duration.ofSeconds(90), 2),
                result.value().trees().get("t").preemption().gangReservations());
        assertEquals(io.grove.core.pool.GangReservations.DEFAULT, PoolsConfigLoader.load("pool_trees: {t: {pools: {a: {}}}}",
                "inline").value().trees().get("t").preemption().gangReservations(), "unset: 1m, 4");
        String bad = PoolsConfigLoader.load("pool_trees: {t: {max_gang_reservations: 100, pools: {a: {}}}}", "inline")
                .describe();
        assertTrue(bad.contains("max_gang_reservations") && bad.contains("must be from 0 (off) to 64, got 100")
                && bad.contains("inline:1:"), bad);
    }

    @Test
    void aTreeAndItsPoolsMaySetTheMinimumRuntimeBeforePreemption() {
        LoadResult<PoolsConfig> result = PoolsConfigLoader.load("pool_trees: {t: {min_job_runtime_before_preemption: 2m, "
                + "pools: {a: {min_job_runtime_before_preemption: 15m}, b: {}}}}", "inline");
        assertTrue(result.ok(), result.describe());
        io.grove.core.pool.PoolTreeConfig tree = result.value().trees().get("t");
        assertEquals(java.time.Duration.ofMinutes(2), tree.preemption().minJobRuntimeBeforePreemption());
        assertEquals(java.time.Duration.ofMinutes(15), tree.pools().get(0).preemption().minJobRuntimeBeforePreemption());
        assertEquals(null, tree.pools().get(1).preemption().minJobRuntimeBeforePreemption(), "unset: inherited");
        assertEquals(java.time.Duration.ZERO, PoolsConfigLoader.load("pool_trees: {t: {pools: {a: {}}}}", "inline").value()
                .trees().get("t").preemption().minJobRuntimeBeforePreemption(), "none by default");
        String bad = PoolsConfigLoader.load("pool_trees: {t: {pools: {a: {min_job_runtime_before_preemption: soon}}}}",
                "inline").describe();
        assertTrue(bad.contains("min_job_runtime_before_preemption"), bad);
    }

    @Test
    void emptyAndNonMappingDocumentsAreRefused() {
        assertEquals(ProblemCode.YAML_SYNTAX, PoolsConfigLoader.load("", "empty").problems().get(0).code());
        assertEquals(ProblemCode.WRONG_TYPE, PoolsConfigLoader.load("- a\n- b\n", "list").problems().get(0).code());
        assertEquals(ProblemCode.NO_TREES, PoolsConfigLoader.load("default_tree: x\n", "none").problems().get(0).code());
    }

    @Test
    void aliasesAreAcceptedButNotTogether() {
        LoadResult<PoolsConfig> ok = PoolsConfigLoader.load(
                "pool_trees: {t: {pools: {a: {min_share_resources: {cpu: 5, user_memory: 1Gi}}}}}", "alias");
        assertTrue(ok.ok(), ok.describe());
        assertEquals(1L << 30, (long) ok.value().trees().get("t").pools().get(0).strongGuaranteeResources()
                .get(ResourceType.MEMORY, 0));
        LoadResult<PoolsConfig> both = PoolsConfigLoader.load(
                "pool_trees: {t: {pools: {a: {min_share_resources: {cpu: 5}, strong_guarantee_resources: {cpu: 5}}}}}", "both");
        assertEquals(ProblemCode.BAD_VALUE, both.problems().get(0).code());
    }

    @Test
    void weightInferenceAndIntegralParentsLoad() {
        LoadResult<PoolsConfig> ok = PoolsConfigLoader.load("""
                pool_trees:
                  t:
                    infer_weight_from_min_share_ratio_multiplier: 10
                    pools:
                      research:
                        integral_guarantees: {resource_flow: {cpu: 20}, burst_guarantee_resources: {cpu: 40}}
                        pools:
                          burst: {integral_guarantees: {guarantee_type: burst, resource_flow: {cpu: 20}, burst_guarantee_resources: {cpu: 40}}}
                      shared: {infer_children_weights_from_historic_usage: true, historic_usage_aggregation_period: 10m}
                      plain: {historic_usage_aggregation_period: 10m}
                """, "ok");
        assertTrue(ok.ok(), ok.describe());
        assertEquals(java.time.Duration.ofMinutes(10),
                ok.value().trees().get("t").pools().get(1).historicUsageAggregationPeriod());
        assertEquals(null, ok.value().trees().get("t").pools().get(2).historicUsageAggregationPeriod(),
                "a period without the switch infers nothing");
        assertEquals(10.0, ok.value().trees().get("t").inferWeightFromGuaranteesShareMultiplier());
        LoadResult<PoolsConfig> low = PoolsConfigLoader.load(
                "pool_trees: {t: {infer_weight_from_guarantees_share_multiplier: 0.5}}", "low");
        assertEquals(ProblemCode.VALUE_OUT_OF_RANGE, low.problems().get(0).code(), low.describe());
    }

    @Test
    void timeLimitsLoadAndADefaultAboveTheMaximumIsAProblemWithItsLine() {
        LoadResult<PoolsConfig> ok = PoolsConfigLoader.load("""
                pool_trees:
                  t:
                    pools:
                      batch: {default_time_limit: 2h, max_time_limit: 1d}
                """, "ok");
        assertTrue(ok.ok(), ok.describe());
        assertEquals(new PoolTimeLimits(java.time.Duration.ofHours(2), java.time.Duration.ofDays(1)),
                ok.value().trees().get("t").pools().get(0).timeLimits());
        LoadResult<PoolsConfig> bad = PoolsConfigLoader.load("""
                pool_trees:
                  t:
                    pools:
                      batch: {default_time_limit: 2h, max_time_limit: 1h}
                      zero: {max_time_limit: 0s}
                """, "bad");
        assertTrue(bad.describe().contains("bad:4: t/batch.default_time_limit: is above max_time_limit (2h > 1h)"),
                bad.describe());
        assertTrue(bad.describe().contains("max_time_limit: must be positive"), bad.describe());
    }
}
