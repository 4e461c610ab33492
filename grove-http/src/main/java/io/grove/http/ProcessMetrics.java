package io.grove.http;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;

/**
 * A daemon's own process on its {@code /metrics}, as every JVM service exports it: memory by pool
 * ({@code jvm_memory_used_bytes}), collections ({@code jvm_gc_pause_seconds}), threads, classes,
 * CPU ({@code process_cpu_usage}, {@code process_cpu_time_ns_total}), open files against the limit
 * and uptime. Read when scraped, except the collections, which a listener counts as they end.
 */
public final class ProcessMetrics implements AutoCloseable {

    private final JvmGcMetrics collections = new JvmGcMetrics();

    /** Binds them to {@code registry}; {@link #close()} stops counting collections. */
    public ProcessMetrics(MeterRegistry registry) {
        new JvmMemoryMetrics().bindTo(registry);
        collections.bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new FileDescriptorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
    }

    @Override
    public void close() {
        collections.close();
    }
}
