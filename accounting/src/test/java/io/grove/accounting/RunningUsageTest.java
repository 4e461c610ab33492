package io.grove.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.resource.Resources;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Running jobs count in a usage report from their start up to now, in the same rows as ended ones. */
class RunningUsageTest {

    static final long H = 3_600_000;
    static final long NOV1 = AccountingStoreContract.NOV1;

    static final RunningJob ALICE = new RunningJob("op-1-1", "op-1", "alice", "physical", "etl_x", "etl/etl_x",
            new Resources(1, 2, 0, 0, 0), NOV1 + 30 * H / 60);

    static UsageRow row(String tree, String key, double cpu, Long period) {
        Map<String, Double> used = new LinkedHashMap<>(Map.of("cpu", cpu));
        return new UsageRow(tree, key, new LinkedHashMap<>(Map.of("used", used)), period);
    }

    @Test
    void aRunningJobAddsToItsPoolsUpToNowAndToTheRowsOfEndedJobs() {
        long now = NOV1 + 90 * H / 60;
        List<UsageRow> rows = RunningUsage.add(List.of(row("physical", "etl", 100, null)),
                new UsageQuery("pool", NOV1, NOV1 + 2 * H, null, null, null), List.of(ALICE), now);
        Map<String, Double> cpu = new LinkedHashMap<>();
        rows.forEach(r -> cpu.put(r.key(), r.seconds().get("used").get("cpu")));
        assertEquals(Map.of(PoolTreeConfig.ROOT, 7200.0, "etl", 7300.0, "etl_x", 7200.0), cpu,
                "2 cpus for an hour, in its pool and those above it, added to what ended");
        List<UsageRow> hours = RunningUsage.add(List.of(), new UsageQuery("pool", NOV1, NOV1 + 2 * H, null, "etl_x", null,
                "hour"), List.of(ALICE), now);
        assertEquals(List.of(3600.0, 3600.0), hours.stream().map(r -> r.seconds().get("used").get("cpu")).toList(),
                "split at 01:00");
        assertEquals(List.of(NOV1 / 1000, (NOV1 + H) / 1000), hours.stream().map(UsageRow::period).toList());
    }

    @Test
    void usersAndOperationsAreClippedToThePeriodAndFiltered() {
        long now = NOV1 + 2 * H;
        UsageQuery hour = new UsageQuery("user", NOV1 + H, NOV1 + 3 * H, null, null, null);
        assertEquals(2 * 3600.0, RunningUsage.add(List.of(), hour, List.of(ALICE), now).get(0).seconds().get("used").get("cpu"),
                "from the period's start to now");
        assertEquals(List.of(), RunningUsage.add(List.of(), new UsageQuery("user", NOV1, now, null, null, "bob"),
                List.of(ALICE), now), "another user's job is not in bob's report");
        assertEquals(List.of(), RunningUsage.add(List.of(), new UsageQuery("operation", NOV1, now, null, "etl", null),
                List.of(ALICE), now), "by user and operation, a pool is the job's own pool");
        UsageRow tree = RunningUsage.add(List.of(), new UsageQuery("tree", NOV1, now, null, null, null), List.of(ALICE), now)
                .get(0);
        assertEquals("physical", tree.key());
        assertEquals(1.5 * 2 * 3600, tree.seconds().get("used").get("cpu"), 1e-9);
    }
}
