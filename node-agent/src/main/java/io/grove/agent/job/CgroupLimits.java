package io.grove.agent.job;

import java.util.List;

/**
 * What a job's cgroup holds it to.
 *
 * @param memoryBytes its memory limit; 0 for none
 * @param cpu the cores it ordered (its quota and its weight follow from them)
 * @param cpuLimit how its CPU is limited
 * @param pids at most this many processes and threads at once; 0 for no limit
 * @param deniedDevices the devices controller's rules of the node's GPUs it was not given
 *     ({@link JobDevices#denyRules}): the rest of what the jobs' parent cgroup allows
 *     ({@link JobCgroups#allowDevices}) is its own
 */
public record CgroupLimits(long memoryBytes, double cpu, CpuLimit cpuLimit, long pids, List<String> deniedDevices) {

    /** The CFS period of a job's CPU quota, in microseconds (the kernel's default). */
    public static final long CPU_PERIOD_US = 100_000;
    /** The smallest quota the kernel accepts, in microseconds. */
    public static final long MIN_CPU_QUOTA_US = 1_000;

    public CgroupLimits {
        if (memoryBytes < 0 || pids < 0 || !(cpu >= 0) || Double.isInfinite(cpu)) {
            throw new IllegalArgumentException("cgroup limits must be finite and non-negative: memory " + memoryBytes
                    + ", cpu " + cpu + ", pids " + pids);
        }
        cpuLimit = cpuLimit == null ? CpuLimit.QUOTA : cpuLimit;
        deniedDevices = deniedDevices == null ? List.of() : List.copyOf(deniedDevices);
    }

    /** Only a memory limit (older callers and tests). */
    public static CgroupLimits memory(long bytes) {
        return new CgroupLimits(bytes, 0, CpuLimit.OFF, 0, null);
    }

    /** The quota per {@link #CPU_PERIOD_US} in microseconds, or -1 when the CPU is not capped. */
    public long cpuQuotaUs() {
        if (cpuLimit != CpuLimit.QUOTA || cpu <= 0) {
            return -1;
        }
        return Math.max(MIN_CPU_QUOTA_US, Math.round(cpu * CPU_PERIOD_US));
    }

    /** cgroup v1 {@code cpu.shares}: 1024 a core, at least 2; 0 when the CPU is not weighted. */
    public long cpuShares() {
        return cpuLimit == CpuLimit.OFF || cpu <= 0 ? 0 : Math.max(2, Math.round(cpu * 1024));
    }

    /** cgroup v2 {@code cpu.weight}: 100 a core (the default weight is one core's), 1..10000; 0 when not weighted. */
    public long cpuWeight() {
        return cpuLimit == CpuLimit.OFF || cpu <= 0 ? 0 : Math.max(1, Math.min(10_000, Math.round(cpu * 100)));
    }
}
