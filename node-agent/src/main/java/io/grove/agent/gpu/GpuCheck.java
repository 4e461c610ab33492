package io.grove.agent.gpu;

import io.grove.agent.job.SystemPrograms;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * The check run before each GPU job ({@code --gpu-check PROGRAM}, as YTsaurus's
 * {@code gpu_check_binary_path}): the program, named by absolute path, runs with the agent's fixed
 * environment plus the devices to check ({@code CUDA_VISIBLE_DEVICES}, {@code NVIDIA_VISIBLE_DEVICES},
 * {@code GROVE_GPU_UUIDS}); exit 0 passes, anything else (or no answer within the timeout) fails
 * and takes those GPUs out of service. It runs off the agent's thread.
 */
public final class GpuCheck {

    private final Path program;
    private final long timeoutMs;
    private final Executor executor;

    /**
     * @param program the check; {@code null} for none
     * @throws IllegalArgumentException if it is not an absolute path to an executable file
     */
    public GpuCheck(Path program, long timeoutMs, Executor executor) {
        if (program != null && (!program.isAbsolute() || !Files.isExecutable(program))) {
            throw new IllegalArgumentException("--gpu-check must be an absolute path to an executable program, got " + program);
        }
        this.program = program;
        this.timeoutMs = timeoutMs;
        this.executor = executor;
    }

    /** No check. */
    public static GpuCheck none() {
        return new GpuCheck(null, 0, Runnable::run);
    }

    public boolean enabled() {
        return program != null;
    }

    /** Checks {@code gpus}: completes with {@code null} when they pass, else with what failed. */
    public CompletableFuture<String> check(List<Gpu> gpus) {
        if (program == null || gpus.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        return CompletableFuture.supplyAsync(() -> run(gpus), executor);
    }

    private String run(List<Gpu> gpus) {
        ProcessBuilder builder = new ProcessBuilder(program.toString()).redirectErrorStream(true);
        builder.environment().clear();
        builder.environment().putAll(SystemPrograms.ENVIRONMENT);
        String uuids = gpus.stream().map(Gpu::uuid).collect(Collectors.joining(","));
        builder.environment().put("CUDA_DEVICE_ORDER", "PCI_BUS_ID");
        builder.environment().put("CUDA_VISIBLE_DEVICES", gpus.stream().map(g -> Integer.toString(g.index()))
                .collect(Collectors.joining(",")));
        builder.environment().put("NVIDIA_VISIBLE_DEVICES", uuids);
        builder.environment().put("GROVE_GPU_UUIDS", uuids);
        try {
            Process process = builder.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
            byte[] out = process.getInputStream().readNBytes(4096);
            if (!process.waitFor(timeoutMs, TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                return "check failed: " + program + " did not finish within " + timeoutMs + " ms";
            }
            if (process.exitValue() == 0) {
                return null;
            }
            String said = new String(out, StandardCharsets.UTF_8).strip();
            return "check failed: " + program + " exited " + process.exitValue() + (said.isEmpty() ? "" : ": "
                    + (said.length() > 300 ? said.substring(said.length() - 300) : said));
        } catch (IOException e) {
            return "check failed: " + program + " could not run: " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "check failed: interrupted";
        }
    }
}
