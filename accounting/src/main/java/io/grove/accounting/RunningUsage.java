package io.grove.accounting;

import io.grove.core.accounting.JobHours;
import io.grove.core.accounting.MeterKind;
import io.grove.core.accounting.Metering;
import io.grove.core.resource.ResourceType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Adds what running jobs used up to now to a usage report of the jobs that ended, so that a report
 * counts every job from its start, not only once it ended: by pool (the job's pool and every pool
 * above it), tree (its root), user or operation, clipped to the report's period (widened to whole
 * hours for pools and trees, as their stored hours are) and split by the report's hours or days.
 * Pure.
 */
public final class RunningUsage {

    private RunningUsage() {
    }

    /** The rows with the running jobs' use in {@code [since, min(until, nowMs))} added to {@code used}. */
    public static List<UsageRow> add(List<UsageRow> rows, UsageQuery query, List<RunningJob> running, long nowMs) {
        if (running.isEmpty()) {
            return rows;
        }
        boolean hours = query.fromHours();
        long since = hours ? Math.floorDiv(query.sinceMs(), Metering.HOUR * 1000) * Metering.HOUR * 1000 : query.sinceMs();
        long until = Math.min(nowMs, query.untilMs());
        long bucket = query.per() == null ? 0 : (query.per().equals("hour") ? Metering.HOUR : JdbcAccountingStore.DAY) * 1000;
        Map<Key, Map<String, Map<String, Double>>> byKey = new LinkedHashMap<>();
        for (UsageRow row : rows) {
            byKey.put(new Key(row.tree(), row.key(), row.period()), copy(row.seconds()));
        }
        for (RunningJob job : running) {
            long from = Math.max(since, job.startMs());
            if (from >= until || !matches(query, job)) {
                continue;
            }
            for (String group : groups(query, job)) {
                if (hours && query.by().equals("pool") && query.pool() != null && !query.pool().equals(group)) {
                    continue;
                }
                long at = from;
                while (at < until) {
                    long end = bucket == 0 ? until : Math.min(until, Math.floorDiv(at, bucket) * bucket + bucket);
                    Key key = new Key(hours ? job.tree() : null, group, bucket == 0 ? null : Math.floorDiv(at, bucket) * bucket / 1000);
                    Map<String, Double> used = byKey.computeIfAbsent(key, k -> new LinkedHashMap<>())
                            .computeIfAbsent(MeterKind.USED.key(), k -> zeros());
                    for (ResourceType r : ResourceType.values()) {
                        used.merge(r.key(), job.resources().get(r) * (end - at) / 1000.0, Double::sum);
                    }
                    at = end;
                }
            }
        }
        List<UsageRow> merged = new ArrayList<>(byKey.size());
        byKey.forEach((key, seconds) -> merged.add(new UsageRow(key.tree(), key.key(), ordered(seconds), key.period())));
        merged.sort(Comparator.comparing((UsageRow row) -> Objects.toString(row.tree(), ""))
                .thenComparing(UsageRow::key).thenComparing(row -> row.period() == null ? 0L : row.period()));
        return merged;
    }

    private record Key(String tree, String key, Long period) {
    }

    /** Whether the report's filters take the job: its tree, its own pool (for users and operations), its user. */
    private static boolean matches(UsageQuery query, RunningJob job) {
        if (query.tree() != null && !query.tree().equals(job.tree())) {
            return false;
        }
        if (query.fromHours()) {
            return job.tree() != null && job.poolPath() != null;
        }
        return (query.pool() == null || query.pool().equals(job.pool()))
                && (query.user() == null || query.user().equals(job.user()));
    }

    /** The rows a job counts in: its pools, its tree, its user or its operation. */
    private static List<String> groups(UsageQuery query, RunningJob job) {
        return switch (query.by()) {
            case "pool" -> JobHours.pools(job.poolPath());
            case "tree" -> List.of(job.tree());
            case "user" -> List.of(job.user() == null ? "" : job.user());
            default -> List.of(job.operationId());
        };
    }

    private static Map<String, Map<String, Double>> copy(Map<String, Map<String, Double>> seconds) {
        Map<String, Map<String, Double>> copy = new LinkedHashMap<>();
        seconds.forEach((kind, resources) -> copy.put(kind, new LinkedHashMap<>(resources)));
        return copy;
    }

    private static Map<String, Double> zeros() {
        Map<String, Double> zeros = new LinkedHashMap<>();
        for (ResourceType r : ResourceType.values()) {
            zeros.put(r.key(), 0.0);
        }
        return zeros;
    }

    /** The kinds in their usual order: {@code used} first. */
    private static Map<String, Map<String, Double>> ordered(Map<String, Map<String, Double>> seconds) {
        Map<String, Map<String, Double>> ordered = new LinkedHashMap<>();
        Map<String, Double> used = seconds.get(MeterKind.USED.key());
        if (used != null) {
            ordered.put(MeterKind.USED.key(), used);
        }
        seconds.forEach((kind, resources) -> ordered.putIfAbsent(kind, resources));
        return ordered;
    }
}
