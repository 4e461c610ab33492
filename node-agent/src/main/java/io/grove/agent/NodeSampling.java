package io.grove.agent;

import io.grove.agent.gpu.Gpu;
import io.grove.agent.gpu.GpuDiscovery;
import io.grove.agent.gpu.GpuSample;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent's slow measurements, on a thread of their own so that a job with a million files or a
 * hanging {@code nvidia-smi} never delays a heartbeat: jobs' disk every {@value #DISK_SAMPLE_MS} ms,
 * found GPUs every {@value #GPU_SAMPLE_MS} ms. What to measure comes from the agent's thread, and
 * what was found goes back to it.
 */
final class NodeSampling implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(NodeSampling.class);
    /** How often jobs' disk is measured. */
    static final long DISK_SAMPLE_MS = 2_000;
    /** How often found GPUs are sampled with nvidia-smi. */
    static final long GPU_SAMPLE_MS = 10_000;

    private final ScheduledExecutorService thread;
    private final Agent agent;
    private final OnLoop loop;
    private volatile boolean closed;

    /** Runs work on the agent's thread. */
    interface OnLoop {
        <T> CompletableFuture<T> run(Supplier<T> work);
    }

    /**
     * @param nvidiaSmi asked about {@code gpus} when they were found by it; {@code null} for declared or no GPUs
     */
    NodeSampling(Agent agent, OnLoop loop, ThreadFactory threads, Path nvidiaSmi, List<Gpu> gpus) {
        this.agent = agent;
        this.loop = loop;
        this.thread = Executors.newSingleThreadScheduledExecutor(threads);
        thread.scheduleWithFixedDelay(this::measureDisk, DISK_SAMPLE_MS, DISK_SAMPLE_MS, TimeUnit.MILLISECONDS);
        if (nvidiaSmi != null && !gpus.isEmpty()) {
            thread.scheduleWithFixedDelay(() -> sampleGpus(nvidiaSmi, gpus), GPU_SAMPLE_MS, GPU_SAMPLE_MS,
                    TimeUnit.MILLISECONDS);
        }
    }

    private void measureDisk() {
        offLoop("measuring jobs' disk", () -> {
            Map<String, Long> used = NodeDisk.measure(loop.run(agent::diskChecks).get(30, TimeUnit.SECONDS));
            return () -> agent.diskMeasured(used);
        });
    }

    private void sampleGpus(Path nvidiaSmi, List<Gpu> gpus) {
        offLoop("sampling the GPUs", () -> {
            Map<Integer, GpuSample> samples = GpuDiscovery.sample(nvidiaSmi, gpus);
            return () -> agent.gpusSampled(samples);
        });
    }

    /** Slow work here whose outcome is applied on the agent's thread; a failure is logged unless the agent stops. */
    private void offLoop(String what, Callable<Runnable> work) {
        try {
            Runnable apply = work.call();
            loop.run(() -> {
                apply.run();
                return null;
            });
        } catch (Exception e) {
            if (!closed) {
                LOG.warn("{} failed: {}", what, e.toString());
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        thread.shutdownNow();
    }
}
