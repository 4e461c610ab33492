package io.grove.core.fairshare;

import static io.grove.core.fairshare.ShareAssert.assertShare;
import static io.grove.core.fairshare.ShareAssert.unit;
import static io.grove.core.fairshare.UpdateFixture.C100;
import static io.grove.core.fairshare.UpdateFixture.pool;
import static io.grove.core.fairshare.UpdateFixture.res;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.core.pool.IntegralGuaranteesConfig;
import io.grove.core.pool.IntegralGuaranteesSettings;
import io.grove.core.pool.PartialResources;
import io.grove.core.resource.ResourceType;
import io.grove.core.resource.Resources;
import io.grove.core.resource.ShareVector;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Rules of the fair-share update (docs/fair-share.md#the-steps) that the sample scenarios do not cover. */
class ReferenceRulesTest {

    private static PartialResources cpu(double value) {
        return PartialResources.of(ResourceType.CPU, value);
    }

    @Test
    void rootOvercommitScalesGuaranteesProportionally() {
        FairShareResult r = UpdateFixture.tree(pool("A").strongGuarantee(cpu(30)), pool("B").strongGuarantee(cpu(90)))
                .op("a", "A", C100).op("b", "B", C100).run();
        assertShare(unit(0.25), r.element("A").strongGuaranteeShare(), "A guarantee");
        assertShare(unit(0.75), r.element("B").strongGuaranteeShare(), "B guarantee");
        assertTrue(r.alerts().stream().anyMatch(a -> a.code() == AlertCode.POOL_TREE_GUARANTEES_OVERCOMMIT));

        FairShareResult r2 = UpdateFixture.tree(pool("A").strongGuarantee(cpu(30)), pool("B").strongGuarantee(cpu(120)))
                .op("a", "A", C100).op("b", "B", C100).run();
        assertShare(unit(0.2), r2.element("A").strongGuaranteeShare(), "A guarantee");
        assertShare(unit(0.8), r2.element("B").strongGuaranteeShare(), "B guarantee");
        assertShare(unit(0.2), r2.element("A").fairShare().total(), "A fair share");
    }

    @Test
    void strongAndBurstOvercommitScalesBothByOneFactor() {
        IntegralGuaranteesConfig burst = IntegralGuaranteesConfig.burst(cpu(1), cpu(60));
        FairShareResult r = UpdateFixture.tree(pool("strong").strongGuarantee(cpu(90)), pool("burst").integral(burst))
                .op("s", "strong", C100).op("b", "burst", C100)
                .volume("burst", C100.times(1000))
                .run();
        assertShare(unit(0.6), r.element("strong").strongGuaranteeShare(), "strong guarantee");
        assertShare(unit(0.4), r.element("burst").fairShare().integralGuarantee(), "burst integral share");
        assertEquals(1, r.alerts().size(), "flows fit, but strong + burst do not: " + r.alerts());
        assertEquals("Strong guarantees and burst guarantees exceed total cluster resources", r.alerts().get(0).message());
    }

    /**
     * {@code infer_weight_from_guarantees_share_multiplier: 10}: pools A (20 cpu guaranteed) and B
     * (60) set no weight. The root's guarantee share is 0.8, so A weighs 10 × 0.2 / 0.8 = 2.5 and B
     * 10 × 0.6 / 0.8 = 7.5; C, guaranteed nothing, weighs 1; D keeps its own weight 4. All demand
     * the cluster: the 0.2 above the guarantees goes 2.5 : 7.5 : 1 : 4, i.e. 0.2 / 15 per unit.
     */
    @Test
    void weightsInferredFromGuaranteeShares() {
        UpdateFixture fixture = UpdateFixture.tree(pool("A").strongGuarantee(cpu(20)), pool("B").strongGuarantee(cpu(60)),
                        pool("C"), pool("D").weight(4))
                .op("a", "A", C100).op("b", "B", C100).op("c", "C", C100).op("d", "D", C100);
        FairShareResult r = FairShareUpdate.run(new FairShareInput(fixture.input().tree().withInferredWeights(10.0),
                fixture.input().totalResources(), fixture.input().operations(), Map.of(), null));
        assertEquals(2.5, r.element("A").weight(), 1e-12);
        assertEquals(7.5, r.element("B").weight(), 1e-12);
        assertEquals(1.0, r.element("C").weight(), 1e-12);
        assertEquals(4.0, r.element("D").weight(), 1e-12);
        double unit = 0.2 / 15;
        assertShare(unit(0.2 + 2.5 * unit), r.element("A").fairShare().total(), "A");
        assertShare(unit(0.6 + 7.5 * unit), r.element("B").fairShare().total(), "B");
        assertShare(unit(unit), r.element("C").fairShare().total(), "C");
        assertShare(unit(4 * unit), r.element("D").fairShare().total(), "D");

        assertEquals(List.of(io.grove.core.pool.ProblemCode.VALUE_OUT_OF_RANGE), io.grove.core.pool.PoolTreeValidator
                .validate(fixture.input().tree().withInferredWeights(0.5)).stream().map(p -> p.code()).toList(),
                "a multiplier below 1 is refused");
    }

    @Test
    void unsetResourcesOfAGuaranteeFollowTheMainResource() {
        FairShareResult r = UpdateFixture.tree(pool("A").strongGuarantee(cpu(10))).run();
        assertShare(new double[] {0.1, 0.1, 0, 0.1, 0}, r.element("A").strongGuaranteeShare(), "inferred");
    }

    @Test
    void freeVolumeOverflowGoesToSiblingsThatCanTakeIt() {
        IntegralGuaranteesSettings distribute = new IntegralGuaranteesSettings(
                Duration.ofMinutes(1), Duration.ofDays(1), 3, true);
        Resources fullBucket = C100.times(0.1 * 86_400);
        FairShareResult r = UpdateFixture.tree(
                        pool("small").integral(IntegralGuaranteesConfig.relaxed(cpu(1))),
                        pool("full").integral(IntegralGuaranteesConfig.relaxed(cpu(10))))
                .integral(distribute)
                .volume("full", fullBucket)
                .elapsed(10)
                .run();
        assertEquals(0.01 * 10 + 0.1 * 10, r.element("small").integral().accumulatedResourceRatioVolume(), 1e-9);
        assertEquals(0.1 * 86_400, r.element("full").integral().accumulatedResourceRatioVolume(), 1e-6);
    }

    @Test
    void withoutRedistributionOverflowIsLost() {
        Resources fullBucket = C100.times(0.1 * 86_400);
        FairShareResult r = UpdateFixture.tree(
                        pool("small").integral(IntegralGuaranteesConfig.relaxed(cpu(1))),
                        pool("full").integral(IntegralGuaranteesConfig.relaxed(cpu(10))))
                .volume("full", fullBucket)
                .elapsed(10)
                .run();
        assertEquals(0.01 * 10, r.element("small").integral().accumulatedResourceRatioVolume(), 1e-9);
    }

    @Test
    void anOverFullBucketNeitherGrowsNorShrinks() {
        // Capacity of a 10% flow is 8640 share-seconds; the bucket holds more (the flow was cut).
        Resources overFull = C100.times(10_000);
        FairShareResult r = UpdateFixture.tree(pool("p").integral(IntegralGuaranteesConfig.relaxed(cpu(10))))
                .volume("p", overFull)
                .elapsed(60)
                .run();
        assertEquals(10_000, r.element("p").integral().accumulatedResourceRatioVolume(), 1e-9);
        assertEquals(8640, r.element("p").integral().integralPoolCapacity().cpu() / 100, 1e-9);
    }

    @Test
    void burstDurationEstimate() {
        // burst 30%, flow 10%, volume 60 share-seconds: lasts 60 / (0.3 - 0.1) = 300 s.
        FairShareResult r = UpdateFixture.tree(pool("b").integral(IntegralGuaranteesConfig.burst(cpu(10), cpu(30))))
                .volume("b", C100.times(60))
                .run();
        assertEquals(300, r.element("b").integral().estimatedBurstUsageDurationSeconds(), 1e-9);
        assertEquals(0.3, r.element("b").integral().specifiedBurstRatio(), 1e-12);
        assertEquals(0.1, r.element("b").integral().totalResourceFlowRatio(), 1e-12);
    }

    @Test
    void maxShareRatioCapsLimitsRoundedToEachResource() {
        Resources total = new Resources(10, 11.17, 0, 1000, 0);
        FairShareResult r = UpdateFixture.tree(pool("p").maxShareRatio(0.99)).total(total).run();
        ShareVector limits = r.element("p").limitsShare();
        assertEquals(1.0, limits.userSlots(), 1e-12);
        assertEquals(11.06 / 11.17, limits.cpu(), 1e-12);
        assertEquals(990 / 1000.0, limits.memory(), 1e-12);
    }

    @Test
    void bestAllocationShareCapsAnOperation() {
        OperationDemand op = new OperationDemand("x", "p", 1, C100, Resources.ZERO, null,
                new ShareVector(1, 1, 1, 0.375, 1), false, null, 0);
        FairShareResult r = UpdateFixture.tree(pool("p")).op(op).run();
        assertEquals(0.375, r.element("x").limitsShare().memory(), 1e-12);
        assertShare(unit(0.375), r.element("x").fairShare().total(), "fair share");
    }

    @Test
    void operationLimitsCapTheFairShare() {
        OperationDemand op = new OperationDemand("x", "p", 1, C100, Resources.ZERO, Resources.UNLIMITED.with(ResourceType.CPU, 20),
                null, false, null, 0);
        FairShareResult r = UpdateFixture.tree(pool("p")).op(op).op("y", "p", res(10, 10, 100)).run();
        assertEquals(0.2, r.element("x").fairShare().total().cpu(), 1e-9);
        assertEquals(0.1, r.element("y").fairShare().total().cpu(), 1e-9);
    }

    @Test
    void usageIsCoveredFirst() {
        // x already runs 60% of the cluster, y runs nothing; both want everything. Usage counts
        // towards the fair share first, so x keeps 0.5 and y gets 0.5, not more than that.
        FairShareResult r = UpdateFixture.tree(pool("p"))
                .op(OperationDemand.of("x", "p", C100).withUsage(C100.times(0.6)))
                .op("y", "p", C100)
                .run();
        assertShare(unit(0.5), r.element("x").fairShare().total(), "x");
        assertShare(unit(0.5), r.element("y").fairShare().total(), "y");
        assertEquals(1.2, r.element("x").satisfactionRatio(), 1e-9);
        assertEquals(0.0, r.element("y").satisfactionRatio(), 1e-9);
    }

    @Test
    void fifoPoolServesByWeightThenStartTime() {
        FairShareResult r = UpdateFixture.tree(pool("q").fifo())
                .op(OperationDemand.of("early", "q", res(60, 60, 600)).withWeight(1))
                .op(OperationDemand.of("heavy", "q", res(60, 60, 600)).withWeight(10))
                .run();
        assertShare(unit(0.6), r.element("heavy").fairShare().total(), "heavy first");
        assertShare(unit(0.4), r.element("early").fairShare().total(), "early second");
        assertEquals(0, r.element("heavy").fifoIndex());
    }

    @Test
    void gangOperationsGetAllOrNothingUnderStepFunctions() {
        FairShareResult steps = UpdateFixture.tree(pool("p"))
                .gangStepFunctions()
                .op(OperationDemand.of("g1", "p", C100.times(0.6)).asGang())
                .op(OperationDemand.of("g2", "p", C100.times(0.6)).asGang())
                .run();
        assertShare(unit(0.6), steps.element("g1").fairShare().total(), "g1 whole");
        assertShare(unit(0.0), steps.element("g2").fairShare().total(), "g2 nothing");

        FairShareResult smooth = UpdateFixture.tree(pool("p"))
                .op(OperationDemand.of("g1", "p", C100.times(0.6)).asGang())
                .op(OperationDemand.of("g2", "p", C100.times(0.6)).asGang())
                .run();
        assertShare(unit(0.5), smooth.element("g1").fairShare().total(), "g1 half");
        assertShare(unit(0.5), smooth.element("g2").fairShare().total(), "g2 half");
    }

    /**
     * Two FIFO pools of equal weight, each with two gang operations of 30% of everything, step
     * functions on. Pool a's first gang fits (0.3); with fit factors rising together, a's second
     * gang (another 0.3) fits before b's first would overflow: a gets 0.6, b the 0.3 left over
     * (0.6 + 0.3 + 0.3 would be 1.2). Inside b the 0.3 covers its first operation exactly, so the
     * second gets nothing: b's children sum to b, not 0.6.
     */
    @Test
    void fifoPoolOfGangsNeverGivesItsChildrenMoreThanItself() {
        FairShareResult r = UpdateFixture.tree(pool("a").fifo(), pool("b").fifo())
                .gangStepFunctions()
                .op(OperationDemand.of("a1", "a", C100.times(0.3)).asGang())
                .op(OperationDemand.of("a2", "a", C100.times(0.3)).asGang())
                .op(OperationDemand.of("b1", "b", C100.times(0.3)).asGang())
                .op(OperationDemand.of("b2", "b", C100.times(0.3)).asGang())
                .run();
        assertShare(unit(0.6), r.element("a").fairShare().total(), "a");
        assertShare(unit(0.3), r.element("a1").fairShare().total(), "a1");
        assertShare(unit(0.3), r.element("a2").fairShare().total(), "a2");
        assertShare(unit(0.3), r.element("b").fairShare().total(), "b");
        assertShare(unit(0.3), r.element("b1").fairShare().total(), "b1, first in b's queue");
        assertShare(unit(0.0), r.element("b2").fairShare().total(), "b2, whose whole demand does not fit");
    }

    @Test
    void aGangThatFitsGetsItsWholeDemand() {
        FairShareResult r = UpdateFixture.tree(pool("p"))
                .gangStepFunctions()
                .op(OperationDemand.of("g", "p", C100.times(0.7)).asGang())
                .run();
        assertShare(unit(0.7), r.element("g").fairShare().total(), "g");
    }

    @Test
    void emptyClusterGivesNothingAndDoesNotFail() {
        FairShareResult r = UpdateFixture.tree(pool("p").integral(IntegralGuaranteesConfig.relaxed(cpu(10))))
                .total(Resources.ZERO)
                .op("x", "p", res(1, 1, 1))
                .elapsed(60)
                .run();
        assertEquals(ShareVector.uniform(1).cpu(), r.element("x").demandShare().cpu());
        assertShare(new double[5], r.element("x").fairShare().total(), "nothing to share");
        assertEquals(Map.of("p", IntegralState.EMPTY), r.integralState());
    }
}
