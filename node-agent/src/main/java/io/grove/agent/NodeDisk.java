package io.grove.agent;

import io.grove.agent.job.DiskReserve;
import io.grove.agent.job.Trees;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The work directory's disk as the agent tells the scheduler of it, and jobs' disk as the agent
 * measures it: a job's sandbox (its private {@code /tmp} included) and its stdout and stderr count
 * against its {@code disk_space}. Measuring walks trees, so it runs off the agent's thread
 * ({@link #measure}); what it finds comes back to the agent.
 */
final class NodeDisk {

    /** What to measure of one running job. */
    record Check(String jobId, List<Path> paths) {
    }

    private final Path workDir;
    private final DiskReserve reserve;

    NodeDisk(Path workDir, DiskReserve reserve) {
        this.workDir = workDir;
        this.reserve = reserve;
    }

    DiskReserve reserve() {
        return reserve;
    }

    /** The bytes each job's paths hold (files and whole trees, links not followed). */
    static Map<String, Long> measure(List<Check> checks) {
        Map<String, Long> used = new LinkedHashMap<>();
        for (Check check : checks) {
            long bytes = 0;
            for (Path path : check.paths()) {
                bytes += Trees.diskBytes(path);
            }
            used.put(check.jobId(), bytes);
        }
        return used;
    }

    /** Bytes the work directory's filesystem has for anyone but root's reserve; -1 if it cannot be read. */
    long usable() {
        try {
            return Files.getFileStore(workDir).getUsableSpace();
        } catch (IOException e) {
            return -1;
        }
    }

    /**
     * What new jobs may order: the usable space, less the agent's reserve when it is not written
     * out, less what running jobs ordered but do not use yet.
     */
    long forJobs(long usable, long promised) {
        long kept = reserve.held() ? 0 : reserve.bytes();
        return Math.max(0, usable - kept - promised);
    }

    /** Why the disk stops jobs from starting, or {@code null}: less is free than the agent keeps for itself. */
    String full(long usable) {
        if (usable < 0) {
            return "the free space of " + workDir + " cannot be read";
        }
        long floor = Math.max(reserve.bytes(), 1L << 20);
        if (usable < floor) {
            return "disk full: " + (usable >> 20) + " MiB free for " + workDir + ", below the " + (floor >> 20)
                    + " MiB the agent keeps for results and logs";
        }
        return null;
    }
}
