package io.grove.core.operation;

/**
 * A job's CPU as its node counted it.
 *
 * @param cpuSeconds CPU time used
 * @param throttledSeconds time its quota held it back; -1 when not counted
 * @param throttledShare share of quota periods in which it was throttled, 0..1; -1 when not counted
 */
public record JobCpu(String jobId, double cpuSeconds, double throttledSeconds, double throttledShare) {

    /** Whether it was throttled in most periods: it would go faster with more cpu ordered. */
    public boolean mostlyThrottled() {
        return throttledShare >= 0.5;
    }
}
