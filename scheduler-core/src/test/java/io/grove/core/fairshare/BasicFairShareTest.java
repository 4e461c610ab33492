package io.grove.core.fairshare;

import static io.grove.core.fairshare.ShareAssert.assertShare;
import static io.grove.core.fairshare.ShareAssert.unit;
import static io.grove.core.fairshare.ShareAssert.vec;
import static io.grove.core.fairshare.UpdateFixture.pool;
import static io.grove.core.fairshare.UpdateFixture.res;

import io.grove.core.pool.PartialResources;
import io.grove.core.resource.ResourceType;
import org.junit.jupiter.api.Test;

class BasicFairShareTest {

    @Test
    void twoComplementaryOperationsGetEqualDominantShares() {
        FairShareResult r = UpdateFixture.tree(pool("PoolA"), pool("PoolB"))
                .op("X", "PoolA", res(100, 100, 2000))
                .op("Y", "PoolA", res(100, 200, 1000))
                .run();
        assertShare(vec(1 / 3.0, 1 / 3.0, 0, 2 / 3.0, 0), r.element("X").fairShare().total(), "X");
        assertShare(vec(1 / 3.0, 2 / 3.0, 0, 1 / 3.0, 0), r.element("Y").fairShare().total(), "Y");
        assertShare(vec(2 / 3.0, 1, 0, 1, 0), r.root().fairShare().total(), "root");
    }

    @Test
    void oneLargeOperationIsCappedByItsDominantResource() {
        FairShareResult r = UpdateFixture.tree(pool("PoolA"), pool("PoolB"))
                .op("X", "PoolA", res(200, 200, 4000))
                .run();
        assertShare(vec(0.5, 0.5, 0, 1, 0), r.element("X").fairShare().total(), "X");
        assertShare(vec(0.5, 0.5, 0, 1, 0), r.element("PoolA").fairShare().total(), "PoolA");
    }

    @Test
    void weightProportionalShareIsAddedOnTopOfGuarantees() {
        FairShareResult r = UpdateFixture.tree(
                        pool("poolA").strongGuarantee(PartialResources.of(ResourceType.CPU, 30))
                                .computePromisedGuaranteeFairShare()
                                .child(pool("poolA1").strongGuarantee(PartialResources.of(ResourceType.CPU, 10)))
                                .child(pool("poolA2").computePromisedGuaranteeFairShare())
                                .child(pool("poolA3")),
                        pool("poolB").strongGuarantee(PartialResources.of(ResourceType.CPU, 30)))
                .op("opA1", "poolA1", res(100, 100, 1000))
                .op("opA2", "poolA2", res(100, 100, 1000))
                .op("opA3", "poolA3", res(2, 2, 20))
                .op("opB", "poolB", res(100, 100, 1000))
                .run();
        assertShare(unit(0.29), r.element("opA1").fairShare().total(), "opA1");
        assertShare(unit(0.19), r.element("opA2").fairShare().total(), "opA2");
        assertShare(unit(0.02), r.element("opA3").fairShare().total(), "opA3");
        assertShare(unit(0.5), r.element("poolB").fairShare().total(), "poolB");
        assertShare(unit(0.19), r.element("opA1").promisedGuaranteeFairShare().total(), "promised opA1");
        assertShare(unit(0.09), r.element("opA2").promisedGuaranteeFairShare().total(), "promised opA2");
        assertShare(unit(0.3), r.element("poolA").promisedGuaranteeFairShare().total(), "promised poolA");
    }
}
