package io.grove.core.fairshare;

import static io.grove.core.fairshare.ShareAssert.assertShare;
import static io.grove.core.fairshare.ShareAssert.unit;
import static io.grove.core.fairshare.UpdateFixture.C100;
import static io.grove.core.fairshare.UpdateFixture.pool;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code infer_children_weights_from_historic_usage}: recent usage lowers a child's weight. */
class HistoricUsageTest {

    private static OperationDemand op(String id, double usage) {
        return new OperationDemand(id, "p", 1.0, C100, C100.times(usage), null, null, false, null, 0);
    }

    /**
     * Period zero: the weights follow this update's usage. x runs 60% of the cluster, y nothing;
     * both demand everything. x weighs 2^−0.6 = 0.6598, y 1, and their shares (every component
     * alike) split in that ratio: x 0.6598 / 1.6598 = 0.3975, y 0.6025.
     */
    @Test
    void aChildThatUsedMoreWeighsLess() {
        FairShareResult r = UpdateFixture.tree(pool("p").historicUsageWeights(Duration.ZERO))
                .op(op("x", 0.6)).op(op("y", 0)).run();
        double wx = Math.pow(2, -0.6);
        assertEquals(wx, r.element("x").weight(), 1e-12);
        assertEquals(1.0, r.element("y").weight(), 1e-12);
        assertShare(unit(wx / (1 + wx)), r.element("x").fairShare().total(), "x");
        assertShare(unit(1 / (1 + wx)), r.element("y").fairShare().total(), "y");
        assertEquals(Map.of("x", 0.6, "y", 0.0), r.historicUsage());
    }

    /**
     * Half-life 60 s: x's average was 0.6 and x now runs nothing; 60 s later the average is half way
     * to 0 (0.3), so x weighs 2^−0.3 = 0.8123 — it regains its weight as it stays idle.
     */
    @Test
    void theAverageDecaysWithTheHalfLife() {
        UpdateFixture fixture = UpdateFixture.tree(pool("p").historicUsageWeights(Duration.ofSeconds(60)))
                .op(op("x", 0)).op(op("y", 0)).elapsed(60);
        FairShareInput base = fixture.input();
        FairShareResult r = FairShareUpdate.run(new FairShareInput(base.tree(), base.totalResources(), base.operations(),
                base.integralState(), 60.0, Map.of(), Map.of("x", 0.6, "y", 0.0)));
        assertEquals(0.3, r.historicUsage().get("x"), 1e-12);
        assertEquals(Math.pow(2, -0.3), r.element("x").weight(), 1e-12);
        assertEquals(0.0, r.historicUsage().get("y"), 1e-12);
        assertEquals(1.0, r.element("y").weight(), 1e-12);
    }

    @Test
    void poolsWithoutTheSettingKeepTheirWeights() {
        FairShareResult r = UpdateFixture.tree(pool("p")).op(op("x", 0.6)).op(op("y", 0)).run();
        assertEquals(1.0, r.element("x").weight(), 1e-12);
        assertEquals(Map.of(), r.historicUsage());
        assertShare(unit(0.5), r.element("x").fairShare().total(), "equal weights, equal shares");
    }
}
