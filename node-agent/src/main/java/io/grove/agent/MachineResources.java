package io.grove.agent;

import io.grove.core.resource.Resources;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.nio.file.Files;
import java.nio.file.Path;

/** What this machine has: CPUs the JVM may use and the memory of /proc/meminfo (or the JVM's view). */
public final class MachineResources {

    private MachineResources() {
    }

    /** CPUs and memory detected; one user slot per CPU; no GPU or network unless given. */
    public static Resources detect() {
        int cpus = Runtime.getRuntime().availableProcessors();
        return new Resources(cpus, cpus, 0, memoryBytes(), 0);
    }

    static double memoryBytes() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemTotal:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024.0;
                }
            }
        } catch (IOException | NumberFormatException e) {
            // fall back below
        }
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
            return sun.getTotalMemorySize();
        }
        return Runtime.getRuntime().maxMemory();
    }
}
