package io.grove.agent.job;

import java.util.List;

/**
 * How this node holds its jobs to what they ordered ({@code grove agent} flags).
 *
 * @param cpuLimit how a job's CPU is limited ({@code --cpu-limit}; a quota by default, as the reference)
 * @param pidsLimit at most this many processes and threads per job ({@code --job-pids-limit}); 0 for none
 * @param defaultMemoryBytes the memory limit of a job that ordered none ({@code --job-default-memory})
 * @param privateDirs whether jobs of a root agent get their own {@code /tmp}, {@code /var/tmp},
 *     {@code /run/lock}, {@code /dev/shm} and {@code /proc} ({@link JobNamespace}; {@code --no-private-tmp} turns it off)
 */
public record JobPolicy(CpuLimit cpuLimit, long pidsLimit, long defaultMemoryBytes, boolean privateDirs) {

    public static final long DEFAULT_PIDS_LIMIT = 4096;
    public static final long DEFAULT_JOB_MEMORY = 1L << 30;

    /** The defaults: a CPU quota, 4,096 processes, 1 GiB for a job that ordered no memory. */
    public static final JobPolicy DEFAULTS = new JobPolicy(CpuLimit.QUOTA, DEFAULT_PIDS_LIMIT, DEFAULT_JOB_MEMORY, true);

    public JobPolicy {
        cpuLimit = cpuLimit == null ? CpuLimit.QUOTA : cpuLimit;
        if (pidsLimit < 0 || defaultMemoryBytes < 0) {
            throw new IllegalArgumentException("job limits must not be negative: pids " + pidsLimit + ", default memory "
                    + defaultMemoryBytes);
        }
    }

    /** The cgroup limits of a job that ordered {@code cpu} cores and {@code memoryBytes}. */
    public CgroupLimits limitsFor(double cpu, long memoryBytes, List<String> deniedDevices) {
        return new CgroupLimits(memoryBytes > 0 ? memoryBytes : defaultMemoryBytes, cpu, cpuLimit, pidsLimit,
                deniedDevices);
    }

    /** The memory a job is held to: its order, else the default. */
    public long memoryOf(long orderedBytes) {
        return orderedBytes > 0 ? orderedBytes : defaultMemoryBytes;
    }

    /** What the policy says, for the agent's start message. */
    public String describe() {
        return "cpu limit " + cpuLimit.key() + ", at most " + (pidsLimit == 0 ? "unlimited" : pidsLimit)
                + " processes per job, " + (defaultMemoryBytes >> 20) + " MiB for a job that orders no memory, "
                + (privateDirs ? "private /tmp, /var/tmp, /run/lock, /dev/shm and /proc for jobs of other users"
                : "jobs share the node's /tmp and /dev/shm (--no-private-tmp)");
    }
}
