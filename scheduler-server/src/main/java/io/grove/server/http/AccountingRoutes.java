package io.grove.server.http;

import io.grove.accounting.AccountingException;
import io.grove.accounting.JobQuery;
import io.grove.accounting.RunningUsage;
import io.grove.accounting.UsageQuery;
import io.grove.accounting.UsageRow;
import io.grove.api.ErrorDetails;
import io.grove.api.JobRecordView;
import io.grove.api.UsageReport;
import io.grove.core.accounting.JobRecord;
import io.grove.core.cluster.ClusterView;
import io.grove.core.fairshare.ElementKind;
import io.grove.core.fairshare.ElementShares;
import io.grove.core.operation.JobState;
import io.grove.core.operation.TreePools;
import io.grove.core.pool.AccessControl;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.http.ApiException;
import io.grove.http.ApiRequest;
import io.grove.http.ApiResponse;
import io.grove.http.Routes;
import io.grove.protocol.Checks;
import io.grove.server.accounting.Ledger;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * Accounting's reports ({@code docs/accounting.md}): {@code GET /api/v1/usage} (resource-hours used,
 * guaranteed and fair, like {@code sreport}) and {@code GET /api/v1/jobs} (the jobs that ended, like
 * {@code sacct}). They read the accounting database on the API's blocking threads. A user sees the
 * jobs and usage of their own, and those of the pools they administer; admins see everything.
 */
final class AccountingRoutes extends ApiResource {

    /** What {@code ?state=} of the job history takes: the states a job ends in. */
    private static final List<String> ENDED = Arrays.stream(JobState.values()).filter(JobState::isFinished)
            .map(JobState::key).toList();

    private final Ledger ledger;

    AccountingRoutes(Parts parts, Ledger ledger) {
        super(parts);
        this.ledger = ledger;
    }

    @Override
    void addTo(Routes.Builder routes) {
        routes.get("/api/v1/usage", (request, params) -> usage(request))
                .doc(Routes.Doc.of("resource-hours used, by pool, tree, user or operation", UsageReport.class)
                        .id("getUsage").query(Routes.Param.oneOf("by", "what rows are (default pool)", "pool", "tree", "user", "operation"),
                                Params.SINCE, Params.UNTIL, Params.TREE, Params.POOL, Params.USER,
                                Routes.Param.oneOf("per", "a row per hour or day (default: one for the period)", "hour", "day")))
                .get("/api/v1/jobs", (request, params) -> history(request))
                .doc(Routes.Doc.listOf("the job ledger", JobRecordView.class)
                        .id("listJobRecords").pagedByCursor().query(Params.SINCE, Params.UNTIL, Params.USER, Params.TREE,
                                Params.POOL, Routes.Param.oneOf("state", "only jobs that ended so", ENDED.toArray(new String[0])),
                                Routes.Param.text("operation", "only this operation's"), Params.LIMIT, Params.CURSOR));
    }

    private void enabled() {
        if (ledger == null) {
            throw new ApiException(404, "NO_ACCOUNTING", "this scheduler keeps no accounting (started with "
                    + "--no-accounting)", Map.of());
        }
    }

    private CompletableFuture<ApiResponse> usage(ApiRequest request) {
        enabled();
        String by = request.query().getOrDefault("by", "pool");
        long until = time(request, "until", Instant.now().toEpochMilli());
        String sinceText = request.query().getOrDefault("since", "30d");
        // a usage report of days is of whole UTC days: 30d is today and the 29 days before it
        long since = sinceText.matches("[0-9]{1,6}d")
                ? LocalDate.now(ZoneOffset.UTC).minusDays(Math.max(0, Long.parseLong(sinceText.substring(0, sinceText.length() - 1)) - 1))
                        .atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli()
                : time(request, "since", until - Duration.ofDays(30).toMillis());
        String tree = request.query().get("tree");
        String pool = request.query().get("pool");
        String user = request.query().get("user");
        String per = request.query().get("per");
        UsageQuery query;
        try {
            query = new UsageQuery(by, since, until, tree, pool, user, per);
        } catch (IllegalArgumentException e) {
            throw new ApiException(400, "BAD_PARAMETER", e.getMessage(), Map.of());
        }
        // the ended jobs' records first, then the running jobs: a job that ends between the two reads is
        // missing for a moment, never counted twice
        return loop.read(cluster -> visibility(request, cluster, pool)).thenComposeAsync(visible -> {
            // what users and operations used is theirs: others see their own, unless they administer the pool asked for
            UsageQuery asked = !query.fromHours() && visible != null && !visible.administersAsked()
                    ? new UsageQuery(by, since, until, tree, pool, request.user()) : query;
            List<UsageRow> ended;
            try {
                ended = ledger.store().usage(asked);
            } catch (AccountingException e) {
                throw unavailable(e);
            }
            return loop.read(cluster -> RunningJobs.of(cluster, asked)).thenApplyAsync(running -> {
                List<UsageReport.Row> rows = new ArrayList<>();
                for (UsageRow row : RunningUsage.add(ended, asked, running, Instant.now().toEpochMilli())) {
                    if (query.fromHours() && by.equals("pool") && visible != null && !visible.showsPool(row.tree(), row.key())) {
                        continue;
                    }
                    rows.add(new UsageReport.Row(row.tree(), row.key(), hours(row.seconds()),
                            row.period() == null ? null : Instant.ofEpochSecond(row.period()).toString()));
                }
                return ApiResponse.ok(new UsageReport(by, Instant.ofEpochMilli(since).toString(),
                        Instant.ofEpochMilli(until).toString(), rows));
            }, Api.BLOCKING);
        }, Api.BLOCKING);
    }

    private static Map<String, Map<String, Double>> hours(Map<String, Map<String, Double>> seconds) {
        Map<String, Map<String, Double>> out = new LinkedHashMap<>();
        seconds.forEach((kind, resources) -> {
            Map<String, Double> converted = new LinkedHashMap<>();
            resources.forEach((resource, value) -> converted.put(resource, value / 3600.0));
            out.put(kind, converted);
        });
        return out;
    }

    private CompletableFuture<ApiResponse> history(ApiRequest request) {
        enabled();
        int limit = Pages.limit(request);
        long until = time(request, "until", Long.MAX_VALUE);
        long since = time(request, "since", 0);
        String cursor = request.query().get("cursor");
        Long beforeEnd = null;
        String beforeJob = null;
        if (cursor != null) {
            int at = cursor.indexOf('.');
            if (at < 1 || !cursor.substring(0, at).matches("[0-9]{1,19}")) {
                throw Pages.badCursor(cursor, "is not END_MS.JOB_ID");
            }
            beforeEnd = Long.parseLong(cursor.substring(0, at));
            beforeJob = cursor.substring(at + 1);
        }
        Long end = beforeEnd;
        String job = beforeJob;
        String state = Pages.oneOf(request, "state", ENDED);
        return loop.read(cluster -> visibility(request, cluster, null)).thenApplyAsync(visible -> {
            JobQuery query = new JobQuery(request.query().get("user"), request.query().get("tree"),
                    request.query().get("pool"), state, request.query().get("operation"), since, until,
                    visible == null ? null : request.user(), visible == null ? null : visible.pools(), end, job, limit);
            try {
                List<JobRecord> records = ledger.store().jobs(query);
                List<JobRecordView> views = new ArrayList<>(records.size());
                for (JobRecord record : records) {
                    views.add(view(record, visible == null || record.user() != null && record.user().equals(request.user())
                            || visible.pools().stream().anyMatch(p -> within(p, record))));
                }
                JobRecord last = records.size() == limit ? records.get(records.size() - 1) : null;
                return Pages.page(views, last == null ? null : last.endMs() + "." + last.jobId());
            } catch (AccountingException e) {
                throw unavailable(e);
            }
        }, Api.BLOCKING);
    }

    /** Whether a record lies in a pool given as {@code tree:path}, or below it. */
    private static boolean within(String pool, JobRecord record) {
        int colon = pool.indexOf(':');
        String path = pool.substring(colon + 1);
        return pool.substring(0, colon).equals(record.tree()) && record.poolPath() != null
                && (record.poolPath().equals(path) || record.poolPath().startsWith(path + "/"));
    }

    private static JobRecordView view(JobRecord record, boolean mayReadOutput) {
        return new JobRecordView(record.jobId(), record.operationId(), record.task(), record.index(), record.attempt(),
                record.user(), record.tree(), record.pool(), record.poolPath(), record.node(),
                ApiValues.amounts(record.resources()), Instant.ofEpochMilli(record.startMs()).toString(),
                Instant.ofEpochMilli(record.endMs()).toString(), record.seconds(), record.state(), record.exitCode(),
                record.reason(), JobOutput.forReader(record.message(), mayReadOutput), record.cpuSeconds(),
                record.gpuSeconds(), record.lostWorkSeconds());
    }

    /**
     * What the reader may see: {@code null} for an admin (everything); else the pools they administer
     * ({@code tree:path}), whether they administer the pool asked for, and the pools whose rows they
     * see by pool ({@code tree -> pools}): the configuration's own, their own ephemeral pool and those
     * they administer. Another user's ephemeral pool is that user's usage, which {@code by=user}
     * withholds; a pool no longer there (an ephemeral pool gone empty, a removed pool) cannot be told
     * apart, so it is withheld too.
     */
    private record Visible(List<String> pools, boolean administersAsked, Map<String, Set<String>> poolRows) {

        boolean showsPool(String tree, String pool) {
            return poolRows.getOrDefault(tree, Set.of()).contains(pool);
        }
    }

    private Visible visibility(ApiRequest request, ClusterView cluster, String askedPool) {
        AccessControl access = config.current().access();
        AccessControl.Identity who = identity(request);
        if (access.isAdmin(who)) {
            return null;
        }
        List<String> pools = new ArrayList<>();
        Map<String, Set<String>> rows = new HashMap<>();
        boolean asked = false;
        for (String tree : cluster.treeNames()) {
            TreePools treePools = cluster.registry().pools(tree);
            if (treePools == null) {
                continue;
            }
            Set<String> shown = rows.computeIfAbsent(tree, t -> new HashSet<>());
            shown.add(PoolTreeConfig.ROOT);
            for (ElementShares element : cluster.elements(tree)) {
                String pool = element.id();
                if (element.kind() == ElementKind.OPERATION || !treePools.contains(pool)) {
                    continue;
                }
                List<String> path = treePools.pathToRoot(pool);
                boolean administers = access.mayAdminister(tree, path, who).allowed();
                String owner = treePools.ephemeralOwner(pool);
                if (treePools.isConfigured(pool) || administers || owner != null && owner.equals(request.user())) {
                    shown.add(pool);
                }
                if (administers) {
                    List<String> fromRoot = new ArrayList<>(path);
                    Collections.reverse(fromRoot);
                    fromRoot.remove(PoolTreeConfig.ROOT);
                    pools.add(tree + ":" + String.join("/", fromRoot));
                    asked |= pool.equals(askedPool);
                }
            }
        }
        return new Visible(pools, asked, rows);
    }

    /** A time: {@code 7d}, {@code 24h}, {@code 30m} ago, {@code 2026-10-01}, or an instant; else 400. */
    static long time(ApiRequest request, String name, long orElse) {
        String text = request.query().get(name);
        if (text == null || text.isEmpty() || text.equals("now")) {
            return text != null && text.equals("now") ? Instant.now().toEpochMilli() : orElse;
        }
        try {
            if (text.matches("[0-9]{1,6}[dhm]")) {
                long amount = Long.parseLong(text.substring(0, text.length() - 1));
                Duration ago = switch (text.charAt(text.length() - 1)) {
                    case 'd' -> Duration.ofDays(amount);
                    case 'h' -> Duration.ofHours(amount);
                    default -> Duration.ofMinutes(amount);
                };
                return Instant.now().minus(ago).toEpochMilli();
            }
            if (text.matches("[0-9]{4}-[0-9]{2}-[0-9]{2}")) {
                return LocalDate.parse(text).atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli();
            }
            return Instant.parse(text).toEpochMilli();
        } catch (DateTimeParseException | ArithmeticException e) {
            throw new ApiException(400, "BAD_PARAMETER", "'" + name + "' must be a time ago (7d, 24h, 30m), a date "
                    + "(2026-10-01, UTC) or an instant (2026-10-01T00:00:00Z), got '"
                    + Checks.printable(text, 64) + "'", new ErrorDetails.Parameter(name));
        }
    }

    private static ApiException unavailable(AccountingException e) {
        return new ApiException(503, "ACCOUNTING_UNAVAILABLE", e.getMessage(), Map.of());
    }

}
