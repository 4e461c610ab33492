package io.grove.core.accounting;

import static io.grove.core.cluster.ClusterHarness.node;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.grove.core.cluster.ClusterHarness;
import io.grove.core.pool.PartialResources;
import io.grove.core.pool.PoolConfig;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.resource.ResourceType;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What metering samples: fair shares and promises, not usage; the root is promised what its top-level pools are. */
class PoolSamplesTest {

    @Test
    void theRootIsPromisedWhatItsTopLevelPoolsAreAndUsageIsNotSampled() {
        ClusterHarness h = ClusterHarness.withPools(
                PoolConfig.builder("prod").strongGuarantee(PartialResources.of(ResourceType.CPU, 6)),
                PoolConfig.builder("etl").strongGuarantee(PartialResources.of(ResourceType.CPU, 2)))
                .node("n1", node(16, 64));
        h.update();
        Map<String, PoolSample> byPool = new HashMap<>();
        for (PoolSample sample : PoolSamples.of(h.cluster(), h.cluster().treeNames().iterator().next())) {
            byPool.put(sample.pool(), sample);
        }
        assertEquals(8.0, byPool.get(PoolTreeConfig.ROOT).get(MeterKind.STRONG_GUARANTEE, ResourceType.CPU), 1e-9,
                "6 + 2: a tree's guarantee is its top-level pools'");
        assertEquals(6.0, byPool.get("prod").get(MeterKind.STRONG_GUARANTEE, ResourceType.CPU), 1e-9);
        for (String pool : List.of(PoolTreeConfig.ROOT, "prod", "etl")) {
            assertEquals(0.0, byPool.get(pool).get(MeterKind.USED, ResourceType.CPU), "usage comes from the jobs, not samples");
        }
    }
}
