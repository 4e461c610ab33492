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
 * @param defaultDiskBytes the disk limit of a job that ordered none ({@code --job-default-disk})
 * @param diskReserveBytes room on the work directory's filesystem kept for the agent's own
 *     results, logs and records ({@code --disk-reserve}), never offered to jobs
 */
public record JobPolicy(CpuLimit cpuLimit, long pidsLimit, long defaultMemoryBytes, boolean privateDirs,
        long defaultDiskBytes, long diskReserveBytes) {

    public static final long DEFAULT_JOB_DISK = 10L << 30;
    public static final long DEFAULT_DISK_RESERVE = 64L << 20;

    /** A policy with the default disk limits. */
    public JobPolicy(CpuLimit cpuLimit, long pidsLimit, long defaultMemoryBytes, boolean privateDirs) {
        this(cpuLimit, pidsLimit, defaultMemoryBytes, privateDirs, DEFAULT_JOB_DISK, DEFAULT_DISK_RESERVE);
    }

    public static final long DEFAULT_PIDS_LIMIT = 4096;
    public static final long DEFAULT_JOB_MEMORY = 1L << 30;

    /** The defaults: a CPU quota, 4,096 processes, 1 GiB for a job that ordered no memory. */
    public static final JobPolicy DEFAULTS = new JobPolicy(CpuLimit.QUOTA, DEFAULT_PIDS_LIMIT, DEFAULT_JOB_MEMORY, true);

    public JobPolicy {
        cpuLimit = cpuLimit == null ? CpuLimit.QUOTA : cpuLimit;
        if (pidsLimit < 0 || defaultMemoryBytes < 0 || defaultDiskBytes < 0 || diskReserveBytes < 0) {
            throw new IllegalArgumentException("job limits must not be negative: pids " + pidsLimit + ", default memory "
                    + defaultMemoryBytes + ", default disk " + defaultDiskBytes + ", disk reserve " + diskReserveBytes);
        }
    }

    /** The cgroup limits of a job: {@code deniedDevices}, the node's GPUs it was not given, refused. */
    public CgroupLimits limitsFor(JobSpec job, List<String> deniedDevices) {
        return new CgroupLimits(memoryOf(job), job.resources().cpu(), cpuLimit, pidsLimit, deniedDevices);
    }

    /** The memory a job is held to: its order, else its tree's default, else the node's. */
    public long memoryOf(JobSpec job) {
        long ordered = (long) job.resources().memory();
        return ordered > 0 ? ordered : job.defaultMemory() > 0 ? job.defaultMemory() : defaultMemoryBytes;
    }

    /** The disk a job is held to: its order, else its tree's default, else the node's. */
    public long diskOf(JobSpec job) {
        return job.diskSpace() > 0 ? job.diskSpace() : job.defaultDiskSpace() > 0 ? job.defaultDiskSpace() : defaultDiskBytes;
    }

    /** This policy without private directories (the machine does not allow mount namespaces). */
    public JobPolicy withoutPrivateDirs() {
        return new JobPolicy(cpuLimit, pidsLimit, defaultMemoryBytes, false, defaultDiskBytes, diskReserveBytes);
    }

    /** This policy with other disk limits. */
    public JobPolicy withDisk(long defaultDisk, long reserve) {
        return new JobPolicy(cpuLimit, pidsLimit, defaultMemoryBytes, privateDirs, defaultDisk, reserve);
    }

    /** What the policy says, for the agent's start message. */
    public String describe() {
        return "cpu limit " + cpuLimit.key() + ", at most " + (pidsLimit == 0 ? "unlimited" : pidsLimit)
                + " processes per job, " + (defaultMemoryBytes >> 20) + " MiB for a job that orders no memory, "
                + (privateDirs ? "private /tmp, /var/tmp, /run/lock, /dev/shm and /proc for jobs of other users"
                : "jobs share the node's /tmp and /dev/shm (--no-private-tmp)") + ", " + (defaultDiskBytes >> 20)
                + " MiB of disk for a job that orders none, " + (diskReserveBytes >> 20) + " MiB of disk kept for the agent";
    }
}
