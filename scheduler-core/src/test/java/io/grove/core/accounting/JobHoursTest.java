package io.grove.core.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.resource.ResourceType;
import io.grove.core.resource.Resources;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class JobHoursTest {

    static final long H = 3_600_000;
    /** 2026-11-01T00:00Z. */
    static final long NOV1 = 1_793_491_200_000L;

    @Test
    void aJobsIntervalIsSplitAtHoursOverItsPoolAndThoseAboveIt() {
        List<HourlyUsage> rows = new JobHours().add("physical", JobHours.pools("etl/etl_x"), new Resources(1, 4, 0, 0, 0),
                NOV1 + 50 * H / 60, NOV1 + 70 * H / 60).rows();
        assertEquals(6, rows.size(), "three pools in two hours: " + rows);
        for (HourlyUsage row : rows) {
            assertEquals(MeterKind.USED, row.kind());
            assertEquals(2400.0, row.get(ResourceType.CPU), 1e-9, row.toString());
            assertEquals(600.0, row.get(ResourceType.USER_SLOTS), 1e-9, row.toString());
        }
        assertEquals(List.of("etl_x", "etl", PoolTreeConfig.ROOT), JobHours.pools("etl/etl_x"));
        assertEquals(List.of(PoolTreeConfig.ROOT), JobHours.pools(""));
        assertTrue(new JobHours().add("physical", List.of("a"), new Resources(1, 1, 0, 0, 0), NOV1, NOV1).isEmpty(),
                "a job that never ran used nothing");
    }

    /** Whatever the jobs, the hours add up to their resources times their durations, to the millisecond. */
    @Test
    void hoursAddUpToTheJobsIntervalsExactly() {
        SplittableRandom random = new SplittableRandom(51);
        for (int round = 0; round < 200; round++) {
            JobHours hours = new JobHours();
            double expected = 0;
            for (int j = 0; j < 20; j++) {
                long start = NOV1 + random.nextInt(48) * H + random.nextInt((int) H);
                long end = start + random.nextInt((int) (5 * H));
                double cpu = 1 + random.nextInt(8);
                hours.add("physical", List.of("a"), new Resources(1, cpu, 0, 0, 0), start, end);
                expected += cpu * (end - start) / 1000.0;
            }
            double sum = hours.rows().stream().mapToDouble(r -> r.get(ResourceType.CPU)).sum();
            assertEquals(expected, sum, 1e-6, "round " + round);
        }
    }
}
