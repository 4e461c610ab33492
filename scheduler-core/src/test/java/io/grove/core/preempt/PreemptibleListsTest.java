package io.grove.core.preempt;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The lists of docs/scheduling.md#which-jobs-may-be-preempted and the scenario preemptible_allocation_lists of fair-share-samples.yaml. */
class PreemptibleListsTest {

    private static final double[] TOTAL = {100, 100, 0, 1000, 0};

    @Test
    void scenario_150JobsOnAFairShareOfOne() {
        double[][] jobs = new double[150][];
        for (int i = 0; i < jobs.length; i++) {
            jobs[i] = new double[] {1, 1, 0, 10, 0};
        }
        double[] fairShare = {1, 1, 0, 1, 0};
        double[] demand = {1.6, 1.6, 0, 1.6, 0};
        PreemptionStatus[] statuses = PreemptibleLists.classify(jobs, TOTAL, fairShare, demand, 0.5, 1.0,
                new double[] {Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN});
        for (int i = 0; i < 150; i++) {
            PreemptionStatus expected = i < 50 ? PreemptionStatus.NON_PREEMPTIBLE
                    : i < 100 ? PreemptionStatus.AGGRESSIVELY_PREEMPTIBLE : PreemptionStatus.PREEMPTIBLE;
            assertEquals(expected, statuses[i], "allocation " + i);
        }
    }

    @Test
    void theJobThatCrossesABoundaryStaysInTheSaferList() {
        double[][] jobs = {{1, 3, 0, 0, 0}, {1, 3, 0, 0, 0}, {1, 3, 0, 0, 0}};
        double[] total = {10, 10, 0, 0, 0};
        double[] fairShare = {0.4, 0.4, 0, 0, 0};
        double[] demand = {0.3, 0.9, 0, 0, 0};
        PreemptionStatus[] statuses = PreemptibleLists.classify(jobs, total, fairShare, demand, 0.2, 1.0,
                new double[] {Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN});
        // cpu is the only non-blocked resource: before = 0, 0.3, 0.6 against 0.08 and 0.4.
        assertEquals(PreemptionStatus.NON_PREEMPTIBLE, statuses[0]);
        assertEquals(PreemptionStatus.AGGRESSIVELY_PREEMPTIBLE, statuses[1]);
        assertEquals(PreemptionStatus.PREEMPTIBLE, statuses[2]);
    }

    @Test
    void anAbsoluteThresholdKeepsSmallOperationsWhole() {
        double[][] jobs = {{1, 1, 0, 0, 0}, {1, 1, 0, 0, 0}, {1, 1, 0, 0, 0}};
        double[] total = {10, 10, 0, 0, 0};
        PreemptionStatus[] statuses = PreemptibleLists.classify(jobs, total, new double[] {0.1, 0.1, 0, 0, 0},
                new double[] {0.3, 0.3, 0, 0, 0}, 0.2, 1.0, new double[] {2.5, Double.NaN, Double.NaN, Double.NaN, Double.NaN});
        assertEquals(PreemptionStatus.NON_PREEMPTIBLE, statuses[0]);
        assertEquals(PreemptionStatus.NON_PREEMPTIBLE, statuses[1]);
        assertEquals(PreemptionStatus.NON_PREEMPTIBLE, statuses[2]);
    }

    @Test
    void belowFairShareFollowsTheNonBlockedResources() {
        double[] fairShare = {0.5, 0.5, 0, 0.2, 0};
        double[] demand = {0.9, 0.9, 0, 0.2, 0};
        assertEquals(true, ShareBounds.belowFairShare(new double[] {0.3, 0.3, 0, 0.2, 0}, fairShare, 0.8, demand));
        assertEquals(false, ShareBounds.belowFairShare(new double[] {0.3, 0.45, 0, 0, 0}, fairShare, 0.8, demand));
        double[] covered = {0.5, 0.5, 0, 0.2, 0};
        assertEquals(true, ShareBounds.belowFairShare(new double[] {0.5, 0.5, 0, 0.1, 0}, covered, 1.0, covered),
                "all blocked: below on some resource is enough");
    }
}
