package io.grove.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.grove.config.whatif.SnapshotLoader;
import io.grove.core.fairshare.DetailedFairShare;
import io.grove.core.fairshare.ElementShares;
import io.grove.core.fairshare.FairShareInput;
import io.grove.core.fairshare.FairShareResult;
import io.grove.core.fairshare.FairShareUpdate;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.resource.ResourceType;
import io.grove.core.resource.ShareVector;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * Runs the sample scenarios of {@code fair-share-samples.yaml} (numbers asserted by the reference
 * implementation's own tests) against the core. Each scenario is turned into a what-if snapshot
 * and loaded through {@link SnapshotLoader}, so the loader is exercised too.
 */
class FairShareScenariosTest {

    /** Scenarios about the heartbeat scheduler and count limits: {@link SchedulingScenariosTest} runs them. */
    private static final Set<String> NOT_FAIR_SHARE = Set.of(
            "preemptible_allocation_lists", "derived_operation_count_limits_and_lightweight");

    private static final double TOLERANCE = 1e-7;

    @SuppressWarnings("unchecked")
    static Stream<String> fairShareScenarios() throws IOException {
        return scenarios().stream()
                .map(s -> (String) s.get("name"))
                .filter(name -> !NOT_FAIR_SHARE.contains(name));
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> scenarios() throws IOException {
        try (InputStream in = FairShareScenariosTest.class.getResourceAsStream("/scenarios/fair-share-samples.yaml")) {
            Map<String, Object> document = new Yaml().load(in);
            return (List<Map<String, Object>>) document.get("scenarios");
        }
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> scenario(String name) throws IOException {
        return scenarios().stream().filter(s -> name.equals(s.get("name"))).findFirst().orElseThrow();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fairShareScenarios")
    @SuppressWarnings("unchecked")
    void scenarioMatchesTheReference(String name) throws IOException {
        Map<String, Object> scenario = scenario(name);
        if (scenario.containsKey("timeline")) {
            runTimeline(scenario);
            return;
        }
        FairShareInput input = load(scenario, (List<Map<String, Object>>) scenario.get("operations"), elapsed(scenario),
                initialVolumes(scenario));
        FairShareResult result = FairShareUpdate.run(input);
        Map<String, Object> expected = (Map<String, Object>) scenario.get("expected");
        int checked = 0;
        for (Map.Entry<String, Object> group : expected.entrySet()) {
            switch (group.getKey()) {
                case "demand_share" -> checked += checkVectors(result, group, ElementShares::demandShare);
                case "fair_share" -> checked += checkVectors(result, group, e -> e.fairShare().total());
                case "limits_share" -> checked += checkVectors(result, group, ElementShares::limitsShare);
                case "promised_guarantee_fair_share" -> checked += checkVectors(result, group,
                        e -> e.promisedGuaranteeFairShare() == null ? ShareVector.ZERO : e.promisedGuaranteeFairShare().total());
                case "detailed" -> checked += checkDetailed(result, (Map<String, Map<String, Object>>) group.getValue());
                case "limits_share_before_setting_limits" -> checked += checkVectors(FairShareUpdate.run(
                        load(scenarioWithoutLimits(scenario), List.of(), null, Map.of())), group, ElementShares::limitsShare);
                default -> fail("scenario " + name + " expects '" + group.getKey() + "', which this test does not know");
            }
        }
        assertTrue(checked > 0, "scenario " + name + " checked nothing");
    }

    private int checkVectors(FairShareResult result, Map.Entry<String, Object> group,
            java.util.function.Function<ElementShares, ShareVector> attribute) {
        @SuppressWarnings("unchecked")
        Map<String, Object> values = (Map<String, Object>) group.getValue();
        for (Map.Entry<String, Object> entry : values.entrySet()) {
            ElementShares element = result.element(elementId(entry.getKey()));
            assertNear(vector(entry.getValue()), attribute.apply(element), group.getKey() + " of " + entry.getKey());
        }
        return values.size();
    }

    private int checkDetailed(FairShareResult result, Map<String, Map<String, Object>> values) {
        int checked = 0;
        for (Map.Entry<String, Map<String, Object>> entry : values.entrySet()) {
            DetailedFairShare detailed = result.element(elementId(entry.getKey())).fairShare();
            for (Map.Entry<String, Object> part : entry.getValue().entrySet()) {
                ShareVector actual = switch (part.getKey()) {
                    case "strong" -> detailed.strongGuarantee();
                    case "integral" -> detailed.integralGuarantee();
                    case "weight_proportional" -> detailed.weightProportional();
                    case "total" -> detailed.total();
                    default -> throw new AssertionError("unknown detailed part " + part.getKey());
                };
                assertNear(vector(part.getValue()), actual, part.getKey() + " fair share of " + entry.getKey());
                checked++;
            }
        }
        return checked;
    }

    @SuppressWarnings("unchecked")
    private void runTimeline(Map<String, Object> scenario) {
        List<Map<String, Object>> timeline = (List<Map<String, Object>>) scenario.get("timeline");
        Map<String, Object> op = Map.of("id", "op", "pool", "relaxed",
                "demand", Map.of("user_slots", 30, "cpu", 30, "memory", 314572800));
        // The first update at t = 0 has no predecessor, so nothing accumulates.
        FairShareResult previous = FairShareUpdate.run(load(scenario, List.of(), null, Map.of()));
        double previousTime = 0;
        for (Map<String, Object> step : timeline) {
            double t = ((Number) step.get("t")).doubleValue();
            // The operation arrives after the update at t = 60 s.
            List<Map<String, Object>> ops = t > 60 ? List.of(op) : List.of();
            FairShareInput input = load(scenario, ops, t - previousTime, Map.of()).withIntegralState(previous.integralState());
            FairShareResult result = FairShareUpdate.run(input);
            ElementShares relaxed = result.element("relaxed");
            assertEquals(((Number) step.get("volume_share_s")).doubleValue(),
                    relaxed.integral().accumulatedResourceRatioVolume(), TOLERANCE, "volume at t=" + t);
            assertNear(unit(((Number) step.get("integral_share")).doubleValue()), relaxed.fairShare().integralGuarantee(),
                    "integral share at t=" + t);
            assertEquals(((Number) scenario.get("capacity_share_s")).doubleValue(),
                    relaxed.integral().integralPoolCapacity().cpu() / 100.0, TOLERANCE, "capacity");
            previous = result;
            previousTime = t;
        }
    }

    /** Turns a scenario into a what-if snapshot and loads it with the product's loader. */
    @SuppressWarnings("unchecked")
    static FairShareInput load(Map<String, Object> scenario, List<Map<String, Object>> operations, Double elapsed,
            Map<String, Object> volumes) {
        Map<String, Object> snapshot = new LinkedHashMap<>();
        Map<String, Object> tree = new LinkedHashMap<>();
        tree.put("total_resources", cluster(scenario.get("cluster_resources")));
        Map<String, Object> root = (Map<String, Object>) ((Map<String, Object>) scenario.get("tree")).get("root");
        if (root.containsKey("children")) {
            tree.put("pools", pools((Map<String, Object>) root.get("children")));
        }
        snapshot.put("tree", tree);
        List<Map<String, Object>> ops = new ArrayList<>();
        for (Map<String, Object> op : operations) {
            Map<String, Object> converted = new LinkedHashMap<>(op);
            if ("C100".equals(converted.get("demand"))) {
                converted.put("demand", cluster("C100"));
            }
            ops.add(converted);
        }
        snapshot.put("operations", ops);
        if (!volumes.isEmpty()) {
            Map<String, Object> state = new LinkedHashMap<>();
            for (Map.Entry<String, Object> entry : volumes.entrySet()) {
                double share = ((Number) entry.getValue()).doubleValue();
                state.put(entry.getKey(), Map.of("accumulated_volume", Map.of(
                        "user_slots", 100 * share, "cpu", 100 * share, "memory", 1048576000.0 * share)));
            }
            snapshot.put("integral_state", state);
        }
        if (elapsed != null) {
            snapshot.put("elapsed_seconds", elapsed);
        }
        DumperOptions options = new DumperOptions();
        options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        String text = new Yaml(options).dump(snapshot);
        LoadResult<FairShareInput> loaded = SnapshotLoader.load(text, (String) scenario.get("name"));
        if (!loaded.ok()) {
            fail("snapshot of " + scenario.get("name") + " does not load:\n" + loaded.describe() + "\n" + text);
        }
        return loaded.value();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> pools(Map<String, Object> children) {
        Map<String, Object> pools = new LinkedHashMap<>();
        for (Map.Entry<String, Object> entry : children.entrySet()) {
            Map<String, Object> pool = new LinkedHashMap<>((Map<String, Object>) entry.getValue());
            Object nested = pool.remove("children");
            if (nested != null) {
                pool.put("pools", pools((Map<String, Object>) nested));
            }
            pools.put(entry.getKey(), pool);
        }
        return pools;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> scenarioWithoutLimits(Map<String, Object> scenario) {
        Map<String, Object> copy = new LinkedHashMap<>(scenario);
        Map<String, Object> root = (Map<String, Object>) ((Map<String, Object>) scenario.get("tree")).get("root");
        copy.put("tree", Map.of("root", Map.of("children", stripLimits((Map<String, Object>) root.get("children")))));
        return copy;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> stripLimits(Map<String, Object> children) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (Map.Entry<String, Object> entry : children.entrySet()) {
            Map<String, Object> pool = new LinkedHashMap<>((Map<String, Object>) entry.getValue());
            pool.remove("resource_limits");
            if (pool.containsKey("children")) {
                pool.put("children", stripLimits((Map<String, Object>) pool.get("children")));
            }
            out.put(entry.getKey(), pool);
        }
        return out;
    }

    private static Map<String, Object> cluster(Object name) {
        if (!"C100".equals(name)) {
            throw new AssertionError("unknown cluster " + name);
        }
        return Map.of("user_slots", 100, "cpu", 100, "gpu", 0, "memory", 1048576000L, "network", 0);
    }

    @SuppressWarnings("unchecked")
    private static Double elapsed(Map<String, Object> scenario) {
        Map<String, Object> state = (Map<String, Object>) scenario.get("integral_state");
        return state == null ? null : ((Number) state.get("elapsed_since_previous_update_s")).doubleValue();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> initialVolumes(Map<String, Object> scenario) {
        Map<String, Object> state = (Map<String, Object>) scenario.get("integral_state");
        return state == null ? Map.of() : (Map<String, Object>) state.get("initial_volume");
    }

    private static String elementId(String name) {
        return "root".equals(name) ? PoolTreeConfig.ROOT : name;
    }

    @SuppressWarnings("unchecked")
    private static double[] vector(Object value) {
        if (value instanceof Number number) {
            return unit(number.doubleValue());
        }
        List<Number> list = (List<Number>) value;
        double[] out = new double[ResourceType.COUNT];
        for (int i = 0; i < out.length; i++) {
            out[i] = list.get(i).doubleValue();
        }
        return out;
    }

    private static double[] unit(double x) {
        return new double[] {x, x, 0, x, 0};
    }

    private static void assertNear(double[] expected, ShareVector actual, String what) {
        for (int i = 0; i < expected.length; i++) {
            if (Math.abs(expected[i] - actual.get(i)) > TOLERANCE) {
                fail(what + ": expected " + java.util.Arrays.toString(expected) + " but was " + actual);
            }
        }
    }

}
