package io.grove.core.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.grove.core.resource.ShareVector;
import org.junit.jupiter.api.Test;

class BestAllocationShareTest {

    @Test
    void referenceExample_jobsOf150OnNodesOf100_100_200() {
        ShareVector share = new BestAllocationShare(new double[] {100.0, 100.0, 200.0}).forJobMemory(150);
        assertEquals(0.375, share.memory(), 1e-12);
        assertEquals(1.0, share.cpu(), 0);
    }

    @Test
    void jobsThatFitEverywhereAreNotCapped() {
        assertEquals(1.0, new BestAllocationShare(new double[] {100.0, 100.0}).forJobMemory(50).memory(), 1e-12);
        assertEquals(1.0, new BestAllocationShare(new double[] {100.0}).forJobMemory(0).memory(), 1e-12);
        assertEquals(0.0, new BestAllocationShare(new double[] {100.0}).forJobMemory(101).memory(), 1e-12);
    }
}
