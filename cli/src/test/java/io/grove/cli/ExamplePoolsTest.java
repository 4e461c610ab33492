package io.grove.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.config.LoadResult;
import io.grove.config.PoolsConfigLoader;
import io.grove.core.pool.PoolConfig;
import io.grove.core.pool.PoolTree;
import io.grove.core.pool.PoolsConfig;
import io.grove.core.resource.ResourceType;
import io.grove.core.resource.Resources;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The example pools sized to a laptop: each pool keeps its share of the cluster, nothing else changes. */
class ExamplePoolsTest {

    static PoolConfig pool(PoolsConfig config, String tree, String name) {
        return PoolTree.of(config.trees().get(tree)).pool(name).orElseThrow().config();
    }

    @Test
    void onTwoCpuEveryAmountIsTheSameShareOfTheCluster() throws Exception {
        String example = Files.readString(Path.of("..", "config", "pools.yaml"));
        double gi = 1L << 30;
        String sized = ExamplePools.sized(example, new Resources(8, 2, 0, 4 * gi, 0));
        LoadResult<PoolsConfig> loaded = PoolsConfigLoader.load(sized, "sized");
        assertTrue(loaded.ok(), loaded.describe() + "\n" + sized);
        PoolsConfig config = loaded.value();
        PoolsConfig original = PoolsConfigLoader.load(example, "example").value();
        assertEquals(0.8, pool(config, "physical", "prod").strongGuaranteeResources().get(ResourceType.CPU, 0), 1e-9,
                "40 of 100 cpu: 40% of 2");
        assertEquals(80 * gi * 4 / 200, pool(config, "physical", "prod").strongGuaranteeResources()
                .get(ResourceType.MEMORY, 0), 1, "80Gi of 200Gi: 40% of 4Gi");
        assertEquals(0.6, pool(config, "physical", "etl").strongGuaranteeResources().get(ResourceType.CPU, 0), 1e-9);
        assertEquals(1.2, pool(config, "physical", "research").resourceLimits().get(ResourceType.CPU, 0), 1e-9);
        assertEquals(0.1, pool(config, "physical", "analytics").integralGuarantees().resourceFlow()
                .get(ResourceType.CPU, 0), 1e-9);
        assertEquals(0.4, pool(config, "physical", "burst").integralGuarantees().burstGuaranteeResources()
                .get(ResourceType.CPU, 0), 1e-9);
        assertEquals(pool(original, "gpu", "training").strongGuaranteeResources().get(ResourceType.GPU, 0),
                pool(config, "gpu", "training").strongGuaranteeResources().get(ResourceType.GPU, 0), "gpus are not scaled");
        assertEquals(original.trees().keySet(), config.trees().keySet());
        assertEquals(pool(original, "physical", "tiny").mode(), pool(config, "physical", "tiny").mode());
        assertTrue(sized.startsWith("# The example pools sized by grove local to its agents: 2 cpu"), sized);
    }

    @Test
    void theSmallestAmountIsAHundredthOfACpu() {
        String sized = ExamplePools.sized("pool_trees:\n  physical:\n    pools:\n      a: {strong_guarantee_resources: {cpu: 0.05}}\n",
                new Resources(1, 1, 0, 1L << 30, 0));
        assertTrue(sized.contains("cpu: 0.01"), sized);
    }
}
