package io.grove.core.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.grove.core.resource.ResourceType;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Metering worked by hand: a pool with a known guarantee and usage, across an hour boundary and a restart. */
class MeteringTest {

    /** 2026-11-01T09:00Z. */
    static final long NINE = 1_793_523_600_000L;
    static final long MIN = 60_000;

    static PoolSample etl(double usedCpu, double guaranteeCpu) {
        PoolSample sample = PoolSample.empty("etl");
        sample.amounts()[MeterKind.USED.ordinal()][ResourceType.CPU.ordinal()] = usedCpu;
        sample.amounts()[MeterKind.STRONG_GUARANTEE.ordinal()][ResourceType.CPU.ordinal()] = guaranteeCpu;
        return sample;
    }

    /** cpu-seconds by hour start (epoch seconds) and kind. */
    static Map<String, Double> cpu(List<HourlyUsage> rows, Map<String, Double> into) {
        for (HourlyUsage row : rows) {
            into.merge(row.hour() + "/" + row.kind().key(), row.get(ResourceType.CPU), Double::sum);
        }
        return into;
    }

    @Test
    void aPoolIsMeteredExactlyAcrossAnHourBoundaryAndARestart() {
        Map<String, Double> hours = new HashMap<>();
        Metering meter = new Metering("physical", -1);
        meter.sample(NINE + 50 * MIN, List.of(etl(4, 10)));            // 09:50: starts metering
        meter.sample(NINE + 55 * MIN, List.of(etl(6, 10)));            // 4 cpu held 09:50-09:55
        cpu(meter.drain(), hours);
        long mark = meter.meteredUntil();
        assertEquals(NINE + 55 * MIN, mark);
        // the scheduler restarts; the first sample after it, at 10:05, covers 09:55-10:05 with what it sees
        Metering revived = new Metering("physical", mark);
        revived.sample(NINE + 65 * MIN, List.of(etl(6, 10)));
        revived.sample(NINE + 70 * MIN, List.of(etl(0, 10)));          // 6 cpu held 10:05-10:10
        cpu(revived.drain(), hours);
        long nine = NINE / 1000;
        long ten = nine + 3600;
        assertEquals(4 * 300 + 6 * 300.0, hours.get(nine + "/used"), 1e-9, "09:50-09:55 at 4, 09:55-10:00 at 6");
        assertEquals(10 * 600.0, hours.get(nine + "/strong_guarantee"), 1e-9, "10 cpu from 09:50 to 10:00");
        assertEquals(6 * 600.0, hours.get(ten + "/used"), 1e-9, "10:00-10:10 at 6: the hour is whole across the restart");
        assertEquals(10 * 600.0, hours.get(ten + "/strong_guarantee"), 1e-9);
        assertEquals(NINE + 70 * MIN, revived.meteredUntil());
    }

    @Test
    void aLongGapIsSplitAtEveryHourAndAClockThatGoesBackAddsNothing() {
        Metering meter = new Metering("physical", NINE);
        meter.sample(NINE + 150 * MIN, List.of(etl(2, 0)));           // 09:00-11:30 at 2 cpu, resumed
        Map<String, Double> hours = cpu(meter.drain(), new HashMap<>());
        long nine = NINE / 1000;
        assertEquals(7200.0, hours.get(nine + "/used"), 1e-9);
        assertEquals(7200.0, hours.get((nine + 3600) + "/used"), 1e-9);
        assertEquals(3600.0, hours.get((nine + 7200) + "/used"), 1e-9);
        meter.sample(NINE + 100 * MIN, List.of(etl(2, 0)));
        assertEquals(0, meter.pendingRows(), "time went back: nothing added");
        assertEquals(NINE + 150 * MIN, meter.meteredUntil());
        assertEquals(3, hours.size(), "no guarantee, no rows for it");
    }
}
