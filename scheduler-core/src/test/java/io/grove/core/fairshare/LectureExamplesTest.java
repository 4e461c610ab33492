package io.grove.core.fairshare;

import static io.grove.core.fairshare.ShareAssert.assertShare;
import static io.grove.core.fairshare.ShareAssert.vec;
import static io.grove.core.fairshare.UpdateFixture.pool;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.grove.core.resource.Resources;
import org.junit.jupiter.api.Test;

/** The examples of the lecture on fair scheduling and DRF (seed 004). */
class LectureExamplesTest {

    private static final double GB = 1024.0 * 1024 * 1024;
    /** 100 nodes of 32 CPU and 64 GB. */
    private static final Resources CLUSTER = new Resources(100_000, 3200, 0, 6400 * GB, 0);

    /** {@code tasks} tasks of {@code cpu} cores and {@code memoryGb} GB each. */
    private static Resources tasks(int tasks, double cpu, double memoryGb) {
        return new Resources(tasks, tasks * cpu, 0, tasks * memoryGb * GB, 0);
    }

    @Test
    void fifoRunsTheFirstOperationThenFillsWithTheSecond() {
        FairShareResult r = UpdateFixture.tree(pool("queue").fifo())
                .total(CLUSTER)
                .op("first", "queue", tasks(1000, 1, 4))
                .op("second", "queue", tasks(1000, 10, 1))
                .run();
        // The first operation gets all 1000 tasks: 1000 CPU and 4000 GB.
        assertEquals(1000, r.element("first").fairShare().total().cpu() * 3200, 1e-6);
        // The second gets what CPU is left: 2200 CPU, i.e. 220 tasks of 10 CPU.
        assertEquals(220, r.element("second").fairShare().total().cpu() * 3200 / 10, 1e-6);
    }

    @Test
    void drfGivesEqualDominantSharesWhereFifoStarvesTheSecond() {
        Resources memoryHungry = tasks(2000, 1, 4);
        Resources cpuHungry = tasks(1000, 10, 1);
        FairShareResult fifo = UpdateFixture.tree(pool("queue").fifo()).total(CLUSTER)
                .op("A", "queue", memoryHungry).op("B", "queue", cpuHungry).run();
        // FIFO: A fills all memory (1600 tasks) and B, which needs some memory too, gets nothing.
        assertEquals(1600, fifo.element("A").fairShare().total().memory() * 6400 / 4, 1e-6);
        assertEquals(0, fifo.element("B").fairShare().total().cpu(), 1e-12);

        FairShareResult drf = UpdateFixture.tree(pool("users")).total(CLUSTER)
                .op("A", "users", memoryHungry).op("B", "users", cpuHungry).run();
        // DRF: both get a dominant share of 2/3 (A of memory, B of CPU).
        assertEquals(2 / 3.0, drf.element("A").fairShare().total().memory(), 1e-7);
        assertEquals(1 / 3.0, drf.element("A").fairShare().total().cpu(), 1e-7);
        assertEquals(2 / 3.0, drf.element("B").fairShare().total().cpu(), 1e-7);
        assertEquals(3200 * 2 / 3.0 / 10, drf.element("B").fairShare().total().cpu() * 3200 / 10, 1e-6);
    }

    @Test
    void proportionsOneHalfAgainstHalfOne() {
        // Unbounded demands in proportions (1, 1/2) and (1/2, 1) of (cpu, memory).
        Resources total = new Resources(1_000_000, 100, 0, 100, 0);
        FairShareResult r = UpdateFixture.tree(pool("p")).total(total)
                .op("first", "p", new Resources(0, 10_000, 0, 5_000, 0))
                .op("second", "p", new Resources(0, 5_000, 0, 10_000, 0))
                .run();
        assertShare(vec(0, 2 / 3.0, 0, 1 / 3.0, 0), r.element("first").fairShare().total(), "first");
        assertShare(vec(0, 1 / 3.0, 0, 2 / 3.0, 0), r.element("second").fairShare().total(), "second");
    }

    @Test
    void weightsTwentyThirtyFifty() {
        Resources whole = CLUSTER.times(10);
        FairShareResult r = UpdateFixture.tree(pool("A").weight(20), pool("B").weight(30), pool("C").weight(50))
                .total(CLUSTER)
                .op("a", "A", whole).op("b", "B", whole).op("c", "C", whole)
                .run();
        assertEquals(0.2, r.element("A").fairShare().total().cpu(), 1e-7);
        assertEquals(0.3, r.element("B").fairShare().total().cpu(), 1e-7);
        assertEquals(0.5, r.element("C").fairShare().total().cpu(), 1e-7);
    }

    @Test
    void whatOneUserDoesNotNeedGoesToTheOthersByWeight() {
        Resources whole = CLUSTER.times(10);
        FairShareResult r = UpdateFixture.tree(pool("A").weight(20), pool("B").weight(30), pool("C").weight(50))
                .total(CLUSTER)
                .op("a", "A", CLUSTER.times(0.1)).op("b", "B", whole).op("c", "C", whole)
                .run();
        assertEquals(0.1, r.element("A").fairShare().total().cpu(), 1e-7);
        assertEquals(0.9 * 3 / 8, r.element("B").fairShare().total().cpu(), 1e-7);
        assertEquals(0.9 * 5 / 8, r.element("C").fairShare().total().cpu(), 1e-7);
    }
}
