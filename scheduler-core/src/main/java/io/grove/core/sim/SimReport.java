package io.grove.core.sim;

import java.util.List;
import java.util.Map;

/**
 * What a simulation measured.
 *
 * @param seed the seed it ran with
 * @param simulatedSeconds virtual time covered
 * @param pools per tree, per pool: shares over time (dominant resource)
 * @param utilization per resource: mean used / offered over the samples
 * @param heartbeats heartbeats handled
 * @param jobsStarted jobs started
 * @param jobsPreempted jobs preempted (graceful interruptions included)
 * @param jobsCompleted jobs that completed
 * @param operationsCompleted operations that completed
 * @param submissionsRefused submissions refused (count limits)
 * @param meanJobWaitSeconds mean time from submit to start of first attempts
 * @param p95JobWaitSeconds 95th percentile of the same
 * @param invariantViolations how many invariant checks failed
 * @param violations the first violations, described
 * @param decisionSeconds wall-clock seconds spent in heartbeats (0 without a ticker)
 * @param fairShareUpdateSeconds wall-clock seconds spent in fair-share updates (0 without a ticker)
 * @param samples the time series, one row per pool per fair-share update
 * @param lostWork work lost to preemption, by resource: what each preempted job held times the
 *     seconds since its last checkpoint (or start), in the resource's units
 */
public record SimReport(
        long seed,
        double simulatedSeconds,
        Map<String, Map<String, PoolSummary>> pools,
        Map<String, Double> utilization,
        long heartbeats,
        long jobsStarted,
        long jobsPreempted,
        long jobsCompleted,
        long operationsCompleted,
        long submissionsRefused,
        double meanJobWaitSeconds,
        double p95JobWaitSeconds,
        long invariantViolations,
        List<String> violations,
        double decisionSeconds,
        double fairShareUpdateSeconds,
        List<Sample> samples,
        Map<String, Double> lostWork) {

    /**
     * One pool over the run, dominant-resource shares of the tree total.
     *
     * @param meanUsageShare mean of the usage share over the samples
     * @param meanFairShare mean of the fair share
     * @param meanDemandShare mean of the demand share
     * @param finalUsageShare usage share at the last sample
     * @param finalFairShare fair share at the last sample
     * @param starvingSeconds time the pool was starving
     */
    public record PoolSummary(double meanUsageShare, double meanFairShare, double meanDemandShare,
            double finalUsageShare, double finalFairShare, double starvingSeconds) {
    }

    /** One pool at one fair-share update. */
    public record Sample(double seconds, String tree, String pool, double usageShare, double fairShare,
            double demandShare, boolean starving) {
    }
}
