package io.grove.agent.gpu;

import java.nio.file.Path;
import java.time.Duration;

/**
 * How an agent finds and checks its GPUs.
 *
 * @param nvidiaSmi where {@code nvidia-smi} is ({@code --nvidia-smi}); GPUs are found with it when
 *     it is there and none are declared with {@code --gpu N}
 * @param driverInfo the driver's {@code /proc/driver/nvidia/gpus}, where each GPU's device minor is read
 * @param check the program run before each GPU job ({@code --gpu-check}); {@code null} for none
 * @param checkTimeout how long the check may take before it counts as failed
 */
public record GpuSettings(Path nvidiaSmi, Path driverInfo, Path check, Duration checkTimeout) {

    public static final GpuSettings DEFAULTS = new GpuSettings(GpuDiscovery.NVIDIA_SMI,
            Path.of("/proc/driver/nvidia/gpus"), null, Duration.ofSeconds(60));

    public GpuSettings {
        nvidiaSmi = nvidiaSmi == null ? GpuDiscovery.NVIDIA_SMI : nvidiaSmi;
        driverInfo = driverInfo == null ? Path.of("/proc/driver/nvidia/gpus") : driverInfo;
        checkTimeout = checkTimeout == null ? Duration.ofSeconds(60) : checkTimeout;
        if (!nvidiaSmi.isAbsolute()) {
            throw new IllegalArgumentException("--nvidia-smi must be an absolute path, got " + nvidiaSmi);
        }
    }
}
