package io.grove.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.core.fairshare.FairShareInput;
import io.grove.core.fairshare.FairShareResult;
import io.grove.core.fairshare.FairShareUpdate;
import io.grove.core.fairshare.OperationDemand;
import io.grove.core.operation.OperationCounts;
import io.grove.core.operation.OperationRegistry;
import io.grove.core.operation.OperationSpec;
import io.grove.core.operation.OperationType;
import io.grove.core.operation.PendingReason;
import io.grove.core.operation.PoolOperationCounts;
import io.grove.core.operation.SubmitError;
import io.grove.core.operation.SubmitException;
import io.grove.core.pool.PoolConfig;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.pool.PoolsConfig;
import io.grove.core.preempt.PreemptibleLists;
import io.grove.core.preempt.PreemptionStatus;
import io.grove.core.resource.Resources;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The two scheduling scenarios of {@code fair-share-samples.yaml}, read from the file: count limits
 * with lightweight operations, and the preemptible job lists.
 */
class SchedulingScenariosTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    @Test
    @SuppressWarnings("unchecked")
    void derivedOperationCountLimitsAndLightweight() throws IOException {
        Map<String, Object> scenario = FairShareScenariosTest.scenario("derived_operation_count_limits_and_lightweight");
        Map<String, Object> root = (Map<String, Object>) ((Map<String, Object>) scenario.get("tree")).get("root");
        List<PoolConfig> pools = new ArrayList<>();
        for (Map.Entry<String, Object> child : ((Map<String, Object>) root.get("children")).entrySet()) {
            Map<String, Object> attrs = (Map<String, Object>) child.getValue();
            PoolConfig.Builder pool = PoolConfig.builder(child.getKey())
                    .maxRunningOperationCount((Integer) attrs.get("max_running_operation_count"))
                    .maxOperationCount((Integer) attrs.get("max_operation_count"));
            if ("fifo".equals(attrs.get("mode"))) {
                pool.fifo();
            }
            if (Boolean.TRUE.equals(attrs.get("enable_lightweight_operations"))) {
                pool.lightweight();
            }
            pools.add(pool.build());
        }
        String tree = "<tree>";
        OperationRegistry registry = new OperationRegistry(new PoolsConfig(tree,
                Map.of(tree, PoolTreeConfig.withPools(tree, pools))));
        int checked = 0;
        for (Map<String, Object> step : (List<Map<String, Object>>) scenario.get("steps")) {
            Map<String, Object> expected = (Map<String, Object>) step.get("expected");
            if (step.containsKey("submit")) {
                Map<String, Object> submit = (Map<String, Object>) step.get("submit");
                OperationSpec spec = OperationSpec.builder().pool((String) submit.get("pool"))
                        .type(OperationType.valueOf(((String) submit.get("type")).toUpperCase(Locale.ROOT)))
                        .jobs(1, Resources.cpu(1)).build();
                if (expected.containsKey("error_code")) {
                    SubmitException refused = assertThrows(SubmitException.class,
                            () -> registry.submit((String) submit.get("id"), spec, "user", T0));
                    assertEquals(202, (Integer) expected.get("error_code"));
                    assertEquals(SubmitError.TOO_MANY_OPERATIONS, refused.code());
                    assertEquals(expected.get("message"), refused.getMessage());
                    checked++;
                    continue;
                }
                registry.submit((String) submit.get("id"), spec, "user", T0);
            } else {
                registry.abort((String) step.get("finish"), T0, "finished");
            }
            checked += check(registry, tree, expected);
        }
        assertEquals(17, checked, "every expectation of the scenario was checked");
    }

    @SuppressWarnings("unchecked")
    private static int check(OperationRegistry registry, String tree, Map<String, Object> expected) {
        int checked = 0;
        OperationCounts counts = registry.counts(tree);
        for (Map.Entry<String, Object> entry : expected.entrySet()) {
            String key = entry.getKey();
            if (key.equals("alert")) {
                String alert = (String) entry.getValue();
                String pending = expected.keySet().stream().filter(k -> "pending".equals(expected.get(k))).findFirst().orElseThrow();
                PendingReason reason = registry.pendingReason(pending, tree);
                assertNotNull(reason);
                assertTrue(alert.contains("pool: " + reason.pool()) && alert.contains("limit: " + reason.limit()), alert);
                assertTrue(reason.message().startsWith("Max running operation count violated"));
                checked++;
            } else if (entry.getValue() instanceof String state) {
                assertEquals(state, registry.operation(key).state().name().toLowerCase(Locale.ROOT), key);
                checked++;
            } else {
                PoolOperationCounts c = counts.counts(key);
                for (Map.Entry<String, Object> counter : ((Map<String, Object>) entry.getValue()).entrySet()) {
                    int actual = switch (counter.getKey()) {
                        case "operation_count" -> c.operationCount();
                        case "running_operation_count" -> c.runningOperationCount();
                        case "lightweight_running_operation_count" -> c.lightweightRunningOperationCount();
                        default -> throw new IllegalArgumentException("unknown counter " + counter.getKey());
                    };
                    assertEquals(((Number) counter.getValue()).intValue(), actual, key + "." + counter.getKey());
                }
                checked++;
            }
        }
        return checked;
    }

    @Test
    @SuppressWarnings("unchecked")
    void preemptibleAllocationLists() throws IOException {
        Map<String, Object> scenario = FairShareScenariosTest.scenario("preemptible_allocation_lists");
        Map<String, Object> nodes = (Map<String, Object>) scenario.get("cluster_nodes");
        Map<String, Object> each = (Map<String, Object>) nodes.get("each");
        int count = (Integer) nodes.get("count");
        Resources total = new Resources(count * num(each, "user_slots"), count * num(each, "cpu"), 0,
                count * num(each, "memory"), 0);
        Map<String, Object> operation = ((List<Map<String, Object>>) scenario.get("operations")).get(0);
        Map<String, Object> running = (Map<String, Object>) operation.get("running_allocations");
        Map<String, Object> job = (Map<String, Object>) running.get("each");
        Resources one = new Resources(num(job, "user_slots"), num(job, "cpu"), 0, num(job, "memory"), 0);
        int runningJobs = (Integer) running.get("count");
        int needed = (Integer) operation.get("needed_allocations");
        Resources usage = new Resources(runningJobs * one.userSlots(), runningJobs * one.cpu(), 0, runningJobs * one.memory(), 0);
        Resources demand = usage.plus(new Resources(needed * one.userSlots(), needed * one.cpu(), 0, needed * one.memory(), 0));

        PoolTreeConfig tree = PoolTreeConfig.withPools("t", List.of(PoolConfig.builder("root-ops").build()));
        FairShareResult result = FairShareUpdate.run(new FairShareInput(tree, total,
                List.of(new OperationDemand("X", "root-ops", 1, demand, usage, null, null, false, T0, needed)), Map.of(), null));
        Map<String, Object> expected = (Map<String, Object>) scenario.get("expected");
        assertEquals(((Map<String, Number>) expected.get("dominant_demand_share")).get("X").doubleValue(),
                result.element("X").demandShare().max(), 1e-7);
        assertEquals(((Map<String, Number>) expected.get("dominant_fair_share")).get("X").doubleValue(),
                result.element("X").fairShare().total().max(), 1e-7);

        Map<String, Object> thresholds = (Map<String, Object>) scenario.get("tree_config");
        double[][] jobs = new double[runningJobs][];
        for (int i = 0; i < runningJobs; i++) {
            jobs[i] = one.toArray();
        }
        PreemptionStatus[] statuses = PreemptibleLists.classify(jobs, total.toArray(),
                result.element("X").fairShare().total().toArray(), result.element("X").demandShare().toArray(),
                num(thresholds, "aggressive_preemption_satisfaction_threshold"),
                num(thresholds, "preemption_satisfaction_threshold"), new double[] {Double.NaN, Double.NaN, Double.NaN,
                    Double.NaN, Double.NaN});
        for (Map.Entry<String, Object> range : ((Map<String, Object>) expected.get("allocation_preemption_status")).entrySet()) {
            String[] bounds = range.getKey().replace("allocations ", "").split("\\.\\.");
            PreemptionStatus status = PreemptionStatus.valueOf(((String) range.getValue()).toUpperCase(Locale.ROOT));
            for (int i = Integer.parseInt(bounds[0]); i <= Integer.parseInt(bounds[1]); i++) {
                assertEquals(status, statuses[i], "allocation " + i);
            }
        }
    }

    private static double num(Map<String, Object> map, String key) {
        return ((Number) map.get(key)).doubleValue();
    }
}
