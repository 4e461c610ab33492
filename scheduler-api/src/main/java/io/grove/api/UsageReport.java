package io.grove.api;

import java.util.List;
import java.util.Map;

/**
 * {@code GET /api/v1/usage}: resource-hours in a period, grouped (docs/accounting.md).
 *
 * @param by {@code pool}, {@code tree}, {@code user} or {@code operation}
 * @param since the period's start (ISO-8601; widened to the hour for pools and trees)
 * @param until its end
 * @param rows one per group, in order
 */
public record UsageReport(String by, @Timestamp String since, @Timestamp String until, List<Row> rows) {

    /**
     * One group's resource-hours.
     *
     * @param tree its tree (pools and trees), else absent
     * @param key the pool, tree, user or operation
     * @param hours by kind ({@code used}; for pools and trees also {@code fair_share},
     *     {@code strong_guarantee}, {@code resource_flow}, {@code burst_guarantee}), then by
     *     resource: cpu-hours, gpu-hours, memory byte-hours, user-slot-hours, network-hours
     * @param period with {@code per=hour} or {@code per=day}, the hour's or day's start; else absent
     */
    public record Row(String tree, String key, Map<String, Map<String, Double>> hours, String period) {
    }
}
