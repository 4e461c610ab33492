package io.grove.agent.metrics;

import io.grove.agent.AgentListener;
import io.grove.agent.broker.BrokerEvent;
import io.grove.agent.broker.BrokerStatus;
import io.grove.agent.broker.Counters;
import io.grove.agent.image.ImageMeters;
import io.grove.agent.image.ImageStore;
import io.grove.agent.image.NodeImages;
import io.grove.http.ProcessMetrics;
import io.grove.protocol.FinishedJob;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToDoubleFunction;

/**
 * The agent's metrics on {@code /metrics}: the seed's broker sensors with {@code queue} (and
 * {@code total}) and {@code task} labels, and the agent's own job and heartbeat figures. Gauges
 * read the latest broker status the agent published.
 */
public final class AgentMetrics implements AgentListener {

    /** The label value of the label a series does not split by. */
    static final String ALL = "all";

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final ProcessMetrics process = new ProcessMetrics(registry);
    /** Running jobs' GPU utilization and memory, read by their gauges. */
    private final Map<String, double[]> jobGpus = new ConcurrentHashMap<>();
    private final Set<String> registered = new HashSet<>();
    private volatile BrokerStatus status;
    private final Timer heartbeats;
    private final Timer jobStartLatency;

    public AgentMetrics() {
        heartbeats = Timer.builder("grove_agent_heartbeat_round_trip").description("heartbeat request to reply")
                .publishPercentileHistogram().register(registry);
        jobStartLatency = Timer.builder("grove_agent_job_start_latency")
                .description("start order received to process started (sandbox preparation through the broker)")
                .publishPercentileHistogram().register(registry);
    }

    /** Publishes the broker's status for the gauges; registers sensors of new queues and types. */
    public void publish(BrokerStatus latest) {
        status = latest;
        FunctionCounter.builder("grove_agent_broker_missing_task_type", this, m -> m.status.missingTaskTypes())
                .description("tasks submitted with a type the configuration does not declare").register(registry);
        latest.queueCounters().keySet().forEach(queue -> sensors("queue", queue));
        latest.typeCounters().keySet().forEach(type -> sensors("task", type));
    }

    private void sensors(String label, String name) {
        if (!registered.add(label + "/" + name)) {
            return;
        }
        Tags tags = tags(label, name);
        gauge("grove_agent_broker_enqueued_tasks", "tasks waiting in the queue (or of the type)", tags, label, name,
                v -> v.enqueuedTasks());
        gauge("grove_agent_broker_running_tasks", "tasks allocated and running", tags, label, name, v -> v.inFlyTasks());
        gauge("grove_agent_broker_cpu_cores", "CPU the running tasks consume, in cores", tags, label, name,
                v -> v.cpuConsumptionMillis() / 1000.0);
        gauge("grove_agent_broker_memory_bytes", "memory the running tasks consume", tags, label, name,
                v -> v.memoryConsumption());
        FunctionCounter.builder("grove_agent_broker_finished_tasks", this, m -> value(m, label, name, v -> v.finishedTasks()))
                .description("tasks that finished").tags(tags).register(registry);
    }

    /**
     * Prometheus wants one set of label names per metric: queue series carry {@code task="all"},
     * task type series {@code queue="all"}.
     */
    static Tags tags(String label, String name) {
        return label.equals("queue") ? Tags.of("queue", name, "task", ALL) : Tags.of("queue", ALL, "task", name);
    }

    private void gauge(String metric, String help, Tags tags, String label, String name,
            ToDoubleFunction<Counters.CounterValues> read) {
        Gauge.builder(metric, this, m -> value(m, label, name, read)).description(help).tags(tags).register(registry);
    }

    private static double value(AgentMetrics metrics, String label, String name,
            ToDoubleFunction<Counters.CounterValues> read) {
        BrokerStatus current = metrics.status;
        if (current == null) {
            return 0;
        }
        var values = (label.equals("queue") ? current.queueCounters() : current.typeCounters()).get(name);
        return values == null ? 0 : read.applyAsDouble(values);
    }

    private Timer queueWait(Tags tags) {
        return Timer.builder("grove_agent_broker_queue_wait").description("how long tasks waited to be allocated")
                .tags(tags).register(registry);
    }

    @Override
    public void brokerEvent(BrokerEvent event) {
        if (event instanceof BrokerEvent.Allocated allocated) {
            Duration waited = Duration.ofMillis(allocated.inQueueMs());
            queueWait(tags("queue", allocated.queue())).record(waited);
            queueWait(tags("queue", "total")).record(waited);
            queueWait(tags("task", allocated.type())).record(waited);
        } else if (event instanceof BrokerEvent.Finished finished && !finished.cancelled()) {
            Timer.builder("grove_agent_broker_execution").description("how long finished tasks ran")
                    .tags(tags("task", finished.type())).register(registry).record(Duration.ofMillis(finished.executionMs()));
        }
    }

    @Override
    public void jobStarted(String jobId, long pid, long waitedMs) {
        jobStartLatency.record(Duration.ofMillis(waitedMs));
        Counter.builder("grove_agent_jobs_started").register(registry).increment();
    }

    @Override
    public void jobGpus(String jobId, double utilization, long memoryUsedBytes) {
        double[] values = jobGpus.computeIfAbsent(jobId, id -> {
            double[] held = new double[2];
            Gauge.builder("grove_agent_job_gpu_utilization", held, v -> v[0]).tag("job", id)
                    .description("a running job's GPUs' mean utilization, percent").register(registry);
            Gauge.builder("grove_agent_job_gpu_memory_used_bytes", held, v -> v[1]).tag("job", id)
                    .description("a running job's GPUs' memory in use").register(registry);
            return held;
        });
        values[0] = utilization;
        values[1] = memoryUsedBytes;
    }

    @Override
    public void gpuSeconds(String jobId, double seconds) {
        Counter.builder("grove_agent_gpu_seconds").description("GPU-seconds held by jobs that ended").register(registry)
                .increment(seconds);
    }

    @Override
    public void jobEnded(FinishedJob result) {
        if (jobGpus.remove(result.jobId()) != null) {
            registry.find("grove_agent_job_gpu_utilization").tag("job", result.jobId()).meters().forEach(registry::remove);
            registry.find("grove_agent_job_gpu_memory_used_bytes").tag("job", result.jobId()).meters().forEach(registry::remove);
        }
        Counter.builder("grove_agent_jobs_ended").tag("outcome", result.outcome().name().toLowerCase(Locale.ROOT))
                .register(registry).increment();
    }

    /** The node's image cache and pulls, read when scraped. */
    public void images(NodeImages images) {
        if (!images.available()) {
            return;
        }
        ImageMeters meters = images.meters();
        ImageStore store = images.store();
        Gauge.builder("grove_agent_image_cache_bytes", store, ImageStore::bytes)
                .description("what the node's cache of images holds on disk").register(registry);
        Gauge.builder("grove_agent_image_cache_limit_bytes", store, ImageStore::limitBytes)
                .description("the most the cache of images may hold (--image-cache-size)").register(registry);
        Gauge.builder("grove_agent_image_cache_images", store, ImageStore::count)
                .description("images in the node's cache").register(registry);
        FunctionCounter.builder("grove_agent_image_cache_hits", meters, ImageMeters::hits)
                .description("image jobs whose image was cached").register(registry);
        FunctionCounter.builder("grove_agent_image_cache_misses", meters, ImageMeters::misses)
                .description("pulls started for image jobs whose image was not cached").register(registry);
        FunctionCounter.builder("grove_agent_image_pulls", meters, ImageMeters::pulls)
                .description("images pulled and unpacked").register(registry);
        FunctionCounter.builder("grove_agent_image_pull_failures", meters, ImageMeters::failures)
                .description("pulls that failed").register(registry);
        FunctionCounter.builder("grove_agent_image_pull_seconds", meters, ImageMeters::pullSeconds)
                .description("time pulls took, together (divided by grove_agent_image_pulls_total: the mean)")
                .register(registry);
    }

    /** A heartbeat's round trip. */
    public void heartbeat(Duration roundTrip) {
        heartbeats.record(roundTrip);
    }

    public PrometheusMeterRegistry registry() {
        return registry;
    }

    public String scrape() {
        return registry.scrape();
    }

    /** Stops counting the process's collections (the registry's other meters are read when scraped). */
    public void close() {
        process.close();
    }
}
