package io.grove.core.preempt;

/**
 * Splits an operation's running jobs, oldest first, into the three lists of docs/scheduling.md#which-jobs-may-be-preempted. The
 * job that crosses a boundary stays in the safer list, so with the default threshold 1 every job
 * up to the fair share is protected from normal preemption.
 */
public final class PreemptibleLists {

    private PreemptibleLists() {
    }

    /**
     * @param jobs the jobs' resources in start order, oldest first (absolute amounts)
     * @param total the tree total
     * @param fairShare the operation's fair share (shares)
     * @param demand the operation's demand (shares)
     * @param aggressiveThreshold {@code aggressive_preemption_satisfaction_threshold}
     * @param threshold {@code preemption_satisfaction_threshold}
     * @param nonPreemptibleUsage absolute usage under which jobs are kept (NaN = unset resource)
     * @return each job's status, in the same order
     */
    public static PreemptionStatus[] classify(double[][] jobs, double[] total, double[] fairShare, double[] demand,
            double aggressiveThreshold, double threshold, double[] nonPreemptibleUsage) {
        int n = total.length;
        double[] before = new double[n];
        double[] beforeShare = new double[n];
        PreemptionStatus[] out = new PreemptionStatus[jobs.length];
        for (int j = 0; j < jobs.length; j++) {
            for (int r = 0; r < n; r++) {
                beforeShare[r] = total[r] == 0 ? (before[r] == 0 ? 0 : 1) : before[r] / total[r];
            }
            if (ShareBounds.below(beforeShare, fairShare, aggressiveThreshold, demand)
                    || belowAbsolute(before, nonPreemptibleUsage)) {
                out[j] = PreemptionStatus.NON_PREEMPTIBLE;
            } else if (ShareBounds.below(beforeShare, fairShare, threshold, demand)) {
                out[j] = PreemptionStatus.AGGRESSIVELY_PREEMPTIBLE;
            } else {
                out[j] = PreemptionStatus.PREEMPTIBLE;
            }
            for (int r = 0; r < n; r++) {
                before[r] += jobs[j][r];
            }
        }
        return out;
    }

    /** Strictly below on every resource the threshold sets; {@code false} when it sets none. */
    private static boolean belowAbsolute(double[] usage, double[] threshold) {
        boolean any = false;
        for (int r = 0; r < usage.length; r++) {
            if (Double.isNaN(threshold[r])) {
                continue;
            }
            any = true;
            if (!(usage[r] < threshold[r])) {
                return false;
            }
        }
        return any;
    }
}
