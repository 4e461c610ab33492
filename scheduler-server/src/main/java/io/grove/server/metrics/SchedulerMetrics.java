package io.grove.server.metrics;

import io.grove.core.accounting.HourlyUsage;
import io.grove.core.cluster.ClusterView;
import io.grove.core.operation.Job;
import io.grove.core.operation.JobEndReason;
import io.grove.core.operation.JobState;
import io.grove.core.operation.Operation;
import io.grove.core.operation.OperationsView;
import io.grove.core.operation.RegistryListener;
import io.grove.core.resource.ResourceType;
import io.grove.core.schedule.Decision;
import io.grove.server.accounting.Ledger;
import io.grove.server.state.StateLog;
import io.grove.http.ProcessMetrics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

/**
 * The daemon's metrics (every one is documented in {@code docs/metrics.md}). Counters and timers
 * are fed by the network edge and the registry listener; gauges read a table refreshed after every
 * fair-share update on the scheduler's thread ({@link PoolGauges}), so scraping never touches the
 * live state, and the series of pools that no longer exist go with them.
 */
public final class SchedulerMetrics {

    /** How often the gauges are refreshed at most. */
    private static final Duration GAUGES_EVERY = Duration.ofSeconds(1);

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final ProcessMetrics process = new ProcessMetrics(registry);
    private final Counter heartbeats;
    private final Timer heartbeatLatency;
    private final Counter jobsStarted;
    private final Map<String, Counter> jobsPreempted = new ConcurrentHashMap<>();
    private final Counter jobsAborted;
    private final Counter jobsFailed;
    private final Counter jobsCompleted;
    private final Map<String, Timer> jobWait = new ConcurrentHashMap<>();
    private final Timer fairShareUpdate;
    private final Counter reloadFailures;
    private final Counter reloads;
    private final Counter abandoned;
    private final PoolGauges gauges = new PoolGauges(registry);
    private final UsedCounters used = new UsedCounters(registry);
    private final PoolHistory history = new PoolHistory();
    private Instant lastGauges;

    public SchedulerMetrics() {
        heartbeats = Counter.builder("grove.heartbeats").description("heartbeats answered").register(registry);
        heartbeatLatency = Timer.builder("grove.heartbeat.latency").description("time from a heartbeat's arrival to its reply")
                .publishPercentileHistogram().minimumExpectedValue(Duration.ofNanos(10_000))
                .maximumExpectedValue(Duration.ofSeconds(1)).register(registry);
        jobsStarted = Counter.builder("grove.jobs.started").description("jobs started").register(registry);
        jobsAborted = Counter.builder("grove.jobs.aborted").description("jobs aborted (operation aborted, node lost, ...)")
                .register(registry);
        jobsFailed = Counter.builder("grove.jobs.failed").description("jobs that failed").register(registry);
        jobsCompleted = Counter.builder("grove.jobs.completed").description("jobs that completed").register(registry);
        for (JobEndReason reason : new JobEndReason[] {JobEndReason.PREEMPTED, JobEndReason.GRACEFUL_PREEMPTION,
            JobEndReason.RESOURCE_LIMITS_VIOLATED}) {
            String name = reason.name().toLowerCase(Locale.ROOT);
            jobsPreempted.put(name, Counter.builder("grove.jobs.preempted").description("jobs preempted, by reason")
                    .tag("reason", name).register(registry));
        }
        fairShareUpdate = Timer.builder("grove.fair.share.update").description("one tree's fair-share update")
                .publishPercentileHistogram().register(registry);
        reloads = Counter.builder("grove.config.reloads").description("pool configurations applied").register(registry);
        reloadFailures = Counter.builder("grove.config.reload.failures").description("pool configurations refused")
                .register(registry);
        abandoned = Counter.builder("grove.api.abandoned").description("requests whose work was skipped: their client left")
                .register(registry);
    }

    /** How many forecasts of every waiting operation were computed (each shared by the explanations of its snapshot). */
    public <T> void watchForecasts(T forecasts, ToDoubleFunction<T> computed) {
        // the registry holds {@code forecasts} weakly: its owner keeps it
        FunctionCounter.builder("grove.forecasts.computed", forecasts, computed)
                .description("forecasts of every waiting operation computed; every explanation of a snapshot shares one")
                .register(registry);
    }

    /** A request's work was skipped because its client had left. */
    public void abandoned() {
        abandoned.increment();
    }

    /** Reports whether the daemon can write its state: 1 while its writes fail (or its journal was lost), else 0. */
    public void watch(StateLog log) {
        Gauge.builder("grove.state.write.failing", log,
                l -> l.writeFailure() != null || l.needsSnapshot() ? 1 : 0)
                .description("1 while the daemon cannot write its state: changes are refused with 503")
                .register(registry);
    }

    /** The ledger's records written, its failed writes and what waits to be written. */
    public void watch(Ledger ledger) {
        FunctionCounter.builder("grove.accounting.records.written", ledger,
                Ledger::written)
                .description("job and operation records written to the accounting database").register(registry);
        FunctionCounter.builder("grove.accounting.write.failures", ledger,
                Ledger::failures)
                .description("writes the accounting database refused (each is tried again)").register(registry);
        Gauge.builder("grove.accounting.waiting", ledger, Ledger::waiting)
                .description("job and operation records not yet written to the accounting database").register(registry);
        FunctionCounter.builder("grove.accounting.dropped", ledger,
                Ledger::dropped)
                .description("job and operation records dropped: too many waited for a database that refused them")
                .register(registry);
    }

    static final String RESOURCE_SECONDS = "a pool's resource-seconds by kind (used: its jobs' exact intervals; "
            + "fair_share, strong_guarantee, resource_flow, burst_guarantee: metered), in the resource's units";

    /** Resource-seconds metered, per tree, pool, resource and kind, since the daemon started. */
    private final Map<List<String>, double[]> metered = new ConcurrentHashMap<>();
    /** Work lost to preemption in resource-seconds, per tree, pool and resource, since the daemon started. */
    private final Map<List<String>, double[]> lostWork = new ConcurrentHashMap<>();

    /** Metering's rows as they go to the database: the counters {@code grove_pool_resource_seconds_total} (scheduler thread). */
    public void metered(List<HourlyUsage> rows) {
        for (HourlyUsage row : rows) {
            for (ResourceType r : ResourceType.values()) {
                add(metered, List.of(row.tree(), row.pool(), r.key(), row.kind().key()), row.get(r),
                        "grove.pool.resource.seconds", RESOURCE_SECONDS, "tree", "pool", "resource", "kind");
            }
        }
    }

    /**
     * A preempted job's lost work — what it held times the seconds since its last checkpoint (or
     * start) — to {@code grove_preempted_work_seconds_total} (scheduler thread).
     */
    private void lostWork(Job job, Operation operation) {
        String pool = operation == null ? null : operation.poolByTree().get(job.tree());
        double seconds = job.lostWorkMs() / 1000.0;
        for (ResourceType r : ResourceType.values()) {
            add(lostWork, List.of(job.tree(), pool == null ? "" : pool, r.key()), job.resources().get(r) * seconds,
                    "grove.preempted.work.seconds", "work lost to preemption: what each preempted job held times the "
                            + "seconds since its last checkpoint (or start), in the resource's units",
                    "tree", "pool", "resource");
        }
    }

    /** Adds to the counter of {@code key} (one tag value per name), registered when first counted. */
    private void add(Map<List<String>, double[]> counters, List<String> key, double amount, String name,
            String description, String... tagNames) {
        if (amount == 0) {
            return;
        }
        double[] total = counters.computeIfAbsent(key, k -> {
            double[] held = new double[1];
            String[] tags = new String[2 * tagNames.length];
            for (int t = 0; t < tagNames.length; t++) {
                tags[2 * t] = tagNames[t];
                tags[2 * t + 1] = k.get(t);
            }
            FunctionCounter.builder(name, held, v -> v[0]).description(description).tags(tags).register(registry);
            return held;
        });
        total[0] += amount;
    }

    public void heartbeat(Decision decision, long nanos) {
        heartbeats.increment();
        heartbeatLatency.record(nanos, TimeUnit.NANOSECONDS);
    }

    public void fairShareUpdated(long nanos) {
        fairShareUpdate.record(nanos, TimeUnit.NANOSECONDS);
    }

    public void reload(boolean applied) {
        (applied ? reloads : reloadFailures).increment();
    }

    /** Hears the registry's job starts and ends; a start's operation (for its wait) is read from {@code registry}. */
    public RegistryListener listener(OperationsView registry) {
        return new RegistryListener() {
            @Override
            public void jobStarted(Job job) {
                Operation operation = registry.operation(job.operationId());
                SchedulerMetrics.this.jobStarted(job, operation == null ? null : operation.submitTime());
            }

            @Override
            public void jobEnded(Job job) {
                SchedulerMetrics.this.jobEnded(job);
                Operation operation = registry.operation(job.operationId());
                List<String> toRoot = operation == null ? null : registry.pathsToRoot(operation).get(job.tree());
                if (toRoot != null) {
                    used.ended(job, toRoot);
                }
                if (job.lostWorkMs() > 0) {
                    lostWork(job, operation);
                }
            }
        };
    }

    /**
     * A job started. A first attempt's wait, from its operation's submission to its start, goes to
     * the wait histogram of its tree (retries wait for other reasons and are not counted there).
     */
    public void jobStarted(Job job, Instant submitted) {
        jobsStarted.increment();
        if (job.attempt() == 0 && submitted != null && job.startTime() != null) {
            jobWait.computeIfAbsent(job.tree(), tree -> Timer.builder("grove.job.wait")
                    .description("time from an operation's submission to the start of each of its jobs' first attempts")
                    .tag("tree", tree).publishPercentileHistogram().minimumExpectedValue(Duration.ofMillis(10))
                    .maximumExpectedValue(Duration.ofDays(1)).register(registry))
                    .record(Duration.between(submitted, job.startTime()));
        }
    }

    public void jobEnded(Job job) {
        if (job.state() == JobState.COMPLETED) {
            jobsCompleted.increment();
        } else if (job.state() == JobState.FAILED) {
            jobsFailed.increment();
        } else if (job.endReason() != null
                && jobsPreempted.containsKey(job.endReason().name().toLowerCase(Locale.ROOT))) {
            jobsPreempted.get(job.endReason().name().toLowerCase(Locale.ROOT)).increment();
        } else {
            jobsAborted.increment();
        }
    }

    /**
     * Refreshes node and pool gauges (at most once a second: a tree of many pools has tens of series
     * per pool, and scrapes come every few seconds) and samples the pools' history; call on the
     * scheduler's thread after an update.
     */
    public void refresh(ClusterView cluster, Instant now) {
        if (lastGauges == null || !now.isBefore(lastGauges.plus(GAUGES_EVERY))) {
            lastGauges = now;
            gauges.refresh(cluster);
        }
        history.record(cluster, now);
    }

    /** The pools' last hour, sampled at updates; read on the scheduler's thread. */
    public PoolHistory history() {
        return history;
    }

    /** The Prometheus text exposition. */
    public String scrape() {
        return registry.scrape();
    }

    /** Stops counting the process's collections (the registry's other meters are read when scraped). */
    public void close() {
        process.close();
    }
}
