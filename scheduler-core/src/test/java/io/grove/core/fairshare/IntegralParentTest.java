package io.grove.core.fairshare;

import static io.grove.core.fairshare.ShareAssert.assertShare;
import static io.grove.core.fairshare.ShareAssert.unit;
import static io.grove.core.fairshare.UpdateFixture.C100;
import static io.grove.core.fairshare.UpdateFixture.pool;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.core.pool.IntegralGuaranteeType;
import io.grove.core.pool.IntegralGuaranteesConfig;
import io.grove.core.pool.PartialResources;
import io.grove.core.pool.PoolTreeValidator;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.resource.ResourceType;
import io.grove.core.resource.Resources;
import org.junit.jupiter.api.Test;

/**
 * A pool of guarantee type none that declares a resource flow and burst resources: a parent of
 * integral pools. It accumulates nothing itself (its flow ratio is 0); its declarations bound its
 * integral children, and it is where their free volume is redistributed.
 */
class IntegralParentTest {

    private static PartialResources cpu(double value) {
        return PartialResources.of(ResourceType.CPU, value);
    }

    private static IntegralGuaranteesConfig parent(double flow, double burst, Boolean distribute) {
        return new IntegralGuaranteesConfig(IntegralGuaranteeType.NONE, cpu(flow), burst > 0 ? cpu(burst) : null, null,
                true, distribute);
    }

    /**
     * Parent of flow 100 cpu and burst 100 cpu; below it a burst pool (flow 50, burst 100) and a
     * relaxed pool (flow 50), both demanding the whole cluster, 60 s after an update with empty
     * volumes. Each bucket got 50% x 60 s = 30 share-seconds, i.e. a ratio by volume of
     * 30 / 60 s = 0.5: the burst pool takes min(burst 1.0, 0.5) = 0.5, the relaxed pool
     * min(0.5, 3 x flow 0.5) = 0.5 of the 0.5 left. Everything is integral: each child 0.5, the
     * parent and the root 1.0, nothing weight-proportional.
     */
    @Test
    void burstAndRelaxedChildrenOfAnIntegralParent() {
        FairShareResult r = UpdateFixture.tree(pool("parent").integral(parent(100, 100, null))
                        .child(pool("burst").integral(IntegralGuaranteesConfig.burst(cpu(50), cpu(100))))
                        .child(pool("relaxed").integral(IntegralGuaranteesConfig.relaxed(cpu(50)))))
                .op("b", "burst", C100)
                .op("x", "relaxed", C100)
                .elapsed(60)
                .run();
        for (String child : new String[] {"burst", "relaxed"}) {
            DetailedFairShare share = r.element(child).fairShare();
            assertShare(unit(0.0), share.strongGuarantee(), child + " strong");
            assertShare(unit(0.5), share.integralGuarantee(), child + " integral");
            assertShare(unit(0.0), share.weightProportional(), child + " weight-proportional");
        }
        for (String pool : new String[] {"parent", PoolTreeConfig.ROOT}) {
            DetailedFairShare share = r.element(pool).fairShare();
            assertShare(unit(1.0), share.integralGuarantee(), pool + " integral");
            assertShare(unit(0.0), share.weightProportional(), pool + " weight-proportional");
        }
        assertEquals(0, r.element("parent").integral().specifiedResourceFlowRatio(), 1e-12,
                "the parent accumulates nothing of its own");
        assertEquals(1.0, r.element("parent").integral().totalResourceFlowRatio(), 1e-12,
                "its subtree's flow: 0.5 + 0.5");
    }

    /**
     * Redistribution through the parent: a full relaxed child (flow 10 cpu, its bucket at its
     * capacity of 10% x 86,400 s) and an empty one (flow 1 cpu) under a parent of flow 11 that
     * distributes free volume (the tree does not). In 10 s the full child's inflow of
     * 10% x 10 s = 1 share-second overflows; the parent hands it to the child that can accept it,
     * which ends with its own 1% x 10 s plus that: 0.1 + 1 = 1.1 share-seconds.
     */
    @Test
    void anOverflowingChildsInflowGoesToItsAcceptingSiblingThroughTheParent() {
        Resources fullBucket = C100.times(0.1 * 86_400);
        FairShareResult r = UpdateFixture.tree(pool("parent").integral(parent(11, 0, true))
                        .child(pool("full").integral(IntegralGuaranteesConfig.relaxed(cpu(10))))
                        .child(pool("small").integral(IntegralGuaranteesConfig.relaxed(cpu(1)))))
                .volume("full", fullBucket)
                .elapsed(10)
                .run();
        assertEquals(0.01 * 10 + 0.1 * 10, r.element("small").integral().accumulatedResourceRatioVolume(), 1e-9);
        assertEquals(0.1 * 86_400, r.element("full").integral().accumulatedResourceRatioVolume(), 1e-6);

        FairShareResult kept = UpdateFixture.tree(pool("parent").integral(parent(11, 0, null))
                        .child(pool("full").integral(IntegralGuaranteesConfig.relaxed(cpu(10))))
                        .child(pool("small").integral(IntegralGuaranteesConfig.relaxed(cpu(1)))))
                .volume("full", fullBucket)
                .elapsed(10)
                .run();
        assertEquals(0.01 * 10, kept.element("small").integral().accumulatedResourceRatioVolume(), 1e-9,
                "without redistribution (the tree's default) the overflow is lost");
    }

    @Test
    void theTreeValidatesAnIntegralParent() {
        PoolTreeConfig fits = PoolTreeConfig.withPools("t", java.util.List.of(pool("parent").integral(parent(100, 100, null))
                .child(pool("burst").integral(IntegralGuaranteesConfig.burst(cpu(50), cpu(100))))
                .child(pool("relaxed").integral(IntegralGuaranteesConfig.relaxed(cpu(50)))).build()));
        assertTrue(PoolTreeValidator.validate(fits).isEmpty(), PoolTreeValidator.validate(fits).toString());
    }
}
