package io.grove.protocol;

/**
 * A job's CPU as its node counted it (its cgroup's accounting, else its processes' times).
 *
 * @param jobId the job
 * @param cpuSeconds CPU time its processes used, in seconds
 * @param throttledSeconds how long its CPU quota held them back, in seconds; -1 when not counted
 * @param throttledShare the share of quota periods in which it was throttled, 0..1; -1 when not counted
 */
public record JobCpu(String jobId, double cpuSeconds, double throttledSeconds, double throttledShare) {

    public JobCpu {
        Checks.required(jobId, "job_id");
        if (!(cpuSeconds >= 0) || Double.isInfinite(cpuSeconds) || !(throttledSeconds >= -1) || Double.isInfinite(throttledSeconds)
                || !(throttledShare >= -1 && throttledShare <= 1)) {
            throw new IllegalArgumentException("job " + jobId + ": cpu_seconds " + cpuSeconds + ", throttled_seconds "
                    + throttledSeconds + ", throttled_share " + throttledShare + " out of range");
        }
    }
}
