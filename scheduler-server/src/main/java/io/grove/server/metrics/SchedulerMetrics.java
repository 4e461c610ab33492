package io.grove.server.metrics;

import io.grove.core.cluster.Cluster;
import io.grove.core.fairshare.ElementKind;
import io.grove.core.fairshare.ElementShares;
import io.grove.core.node.Node;
import io.grove.core.operation.Job;
import io.grove.core.operation.JobEndReason;
import io.grove.core.operation.JobState;
import io.grove.core.operation.OperationRegistry;
import io.grove.core.operation.PoolOperationCounts;
import io.grove.core.schedule.Decision;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The daemon's metrics. Counters and timers are fed by the network edge and the registry
 * listener; per-pool gauges read a table refreshed after every fair-share update on the
 * scheduler's thread, so scraping never touches the live state.
 */
public final class SchedulerMetrics implements OperationRegistry.Listener {

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final Counter heartbeats;
    private final Timer heartbeatLatency;
    private final Counter jobsStarted;
    private final Counter jobsPreempted;
    private final Counter jobsAborted;
    private final Counter jobsFailed;
    private final Counter jobsCompleted;
    private final Timer fairShareUpdate;
    private final Counter reloadFailures;
    private final Counter reloads;
    private final Map<String, Double> values = new ConcurrentHashMap<>();

    public SchedulerMetrics() {
        heartbeats = Counter.builder("grove.heartbeats").description("heartbeats answered").register(registry);
        heartbeatLatency = Timer.builder("grove.heartbeat.latency").description("time from a heartbeat's arrival to its reply")
                .publishPercentileHistogram().minimumExpectedValue(Duration.ofNanos(10_000))
                .maximumExpectedValue(Duration.ofSeconds(1)).register(registry);
        jobsStarted = Counter.builder("grove.jobs.started").register(registry);
        jobsPreempted = Counter.builder("grove.jobs.preempted").register(registry);
        jobsAborted = Counter.builder("grove.jobs.aborted").register(registry);
        jobsFailed = Counter.builder("grove.jobs.failed").register(registry);
        jobsCompleted = Counter.builder("grove.jobs.completed").register(registry);
        fairShareUpdate = Timer.builder("grove.fair.share.update").description("one tree's fair-share update")
                .publishPercentileHistogram().register(registry);
        reloads = Counter.builder("grove.config.reloads").description("pool configurations applied").register(registry);
        reloadFailures = Counter.builder("grove.config.reload.failures").description("pool configurations refused")
                .register(registry);
        gauge("grove.nodes", "state", "online");
        gauge("grove.nodes", "state", "offline");
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

    @Override
    public void jobStarted(Job job) {
        jobsStarted.increment();
    }

    @Override
    public void jobEnded(Job job) {
        if (job.state() == JobState.COMPLETED) {
            jobsCompleted.increment();
        } else if (job.state() == JobState.FAILED) {
            jobsFailed.increment();
        } else if (job.endReason() == JobEndReason.PREEMPTED || job.endReason() == JobEndReason.GRACEFUL_PREEMPTION
                || job.endReason() == JobEndReason.RESOURCE_LIMITS_VIOLATED) {
            jobsPreempted.increment();
        } else {
            jobsAborted.increment();
        }
    }

    /** Refreshes node and pool gauges; call on the scheduler's thread after an update. */
    public void refresh(Cluster cluster) {
        int online = 0;
        int offline = 0;
        for (Node node : cluster.nodes()) {
            if (node.state() == Node.State.ONLINE) {
                online++;
            } else {
                offline++;
            }
        }
        values.put(key("grove.nodes", "state", "online"), (double) online);
        values.put(key("grove.nodes", "state", "offline"), (double) offline);
        for (String tree : cluster.treeNames()) {
            var starving = cluster.starving(tree);
            for (ElementShares element : cluster.elements(tree)) {
                if (element.kind() == ElementKind.OPERATION) {
                    continue;
                }
                String pool = element.id();
                pool(tree, pool, "grove.pool.fair.share.ratio", element.fairShare().total().max());
                pool(tree, pool, "grove.pool.usage.ratio", element.usageShare().max());
                pool(tree, pool, "grove.pool.demand.ratio", element.demandShare().max());
                pool(tree, pool, "grove.pool.starving", starving.containsKey(pool) ? 1 : 0);
                if (element.integral() != null) {
                    pool(tree, pool, "grove.pool.accumulated.volume.ratio", element.integral().accumulatedResourceRatioVolume());
                }
                PoolOperationCounts counts = cluster.registry().counts(tree).counts(pool);
                pool(tree, pool, "grove.pool.operations.running", counts.runningOperationCount()
                        + counts.lightweightRunningOperationCount());
                pool(tree, pool, "grove.pool.operations.pending", counts.pendingOperationCount());
                pool(tree, pool, "grove.pool.operations.total", counts.operationCount());
            }
        }
    }

    private void pool(String tree, String pool, String name, double value) {
        String key = name + "|tree=" + tree + "|pool=" + pool;
        if (values.put(key, value) == null) {
            Gauge.builder(name, values, v -> v.getOrDefault(key, Double.NaN)).tag("tree", tree).tag("pool", pool)
                    .register(registry);
        }
    }

    private void gauge(String name, String tag, String tagValue) {
        String key = key(name, tag, tagValue);
        values.put(key, 0.0);
        Gauge.builder(name, values, v -> v.getOrDefault(key, Double.NaN)).tag(tag, tagValue).register(registry);
    }

    private static String key(String name, String tag, String value) {
        return name + "|" + tag + "=" + value;
    }

    /** The Prometheus text exposition. */
    public String scrape() {
        return registry.scrape();
    }
}
