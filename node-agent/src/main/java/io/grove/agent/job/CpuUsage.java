package io.grove.agent.job;

/**
 * A job's CPU as its cgroup counted it.
 *
 * @param usageNanos CPU time used by all its processes, in nanoseconds
 * @param throttledNanos how long its processes were held back by its quota, in nanoseconds
 * @param periods quota periods in which it ran
 * @param throttledPeriods of those, the periods in which it hit its quota
 */
public record CpuUsage(long usageNanos, long throttledNanos, long periods, long throttledPeriods) {

    /** The share of periods in which the job was throttled, 0..1 (0 before it ran a period). */
    public double throttledShare() {
        return periods == 0 ? 0 : (double) throttledPeriods / periods;
    }
}
