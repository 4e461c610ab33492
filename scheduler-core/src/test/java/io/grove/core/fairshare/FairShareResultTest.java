package io.grove.core.fairshare;

import static io.grove.core.fairshare.UpdateFixture.pool;
import static io.grove.core.fairshare.UpdateFixture.res;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.core.pool.PoolTreeConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FairShareResultTest {

    private final FairShareResult result = UpdateFixture.tree(pool("a").child(pool("a1")), pool("b"))
            .op("x", "a1", res(10, 10, 100))
            .op("y", "b", res(10, 10, 100))
            .run();

    @Test
    void elementsComeInTreeOrderAndReadOnly() {
        List<String> ids = new ArrayList<>(result.elements().keySet());
        assertEquals(List.of(PoolTreeConfig.ROOT, "a", "a1", "x", "b", "y"), ids);
        assertEquals(6, result.elements().size());
        assertTrue(result.elements().containsKey("x"));
        assertFalse(result.elements().containsKey("nope"));
        assertNull(result.elements().get("nope"));
        assertThrows(UnsupportedOperationException.class, () -> result.elements().put("z", result.root()));
        assertThrows(IllegalArgumentException.class, () -> result.element("nope"));
    }

    @Test
    void elementsKnowTheirParentsAndKinds() {
        assertEquals(ElementKind.ROOT, result.root().kind());
        assertNull(result.root().parent());
        assertEquals("a1", result.element("x").parent());
        assertEquals(ElementKind.OPERATION, result.element("x").kind());
        assertEquals(ElementKind.POOL, result.element("a1").kind());
        for (Map.Entry<String, ElementShares> entry : result.elements().entrySet()) {
            assertEquals(entry.getKey(), entry.getValue().id());
        }
    }

    /**
     * The result keeps its elements for the operations' shares, made on demand; none of them may
     * keep a function (operations let go of theirs as they take their shares, FIFO pools' in the
     * result's walk), or a daemon would hold every function of the last update.
     */
    @Test
    void noElementKeepsAFunction() {
        List<FairShareResult> results = new ArrayList<>();
        for (long seed = 1; seed <= 6; seed++) {
            results.add(FairShareUpdate.run(TreeGenerator.generate(seed,
                    new TreeGenerator.Shape(60, 400, 3, seed % 2 == 0))));
        }
        results.add(UpdateFixture.tree(pool("queue").fifo(), pool("fair").child(pool("leaf")))
                .op("q1", "queue", res(10, 10, 100))
                .op("q2", "queue", res(10, 10, 100).with(io.grove.core.resource.ResourceType.CPU, 30))
                .op("f1", "fair", res(10, 10, 100))
                .op("l1", "leaf", res(10, 10, 100))
                .op("r1", PoolTreeConfig.ROOT, res(10, 10, 100))
                .run());
        for (FairShareResult each : results) {
            for (Element element : each.workingElements()) {
                assertNull(element.fairShareByFitFactor, element.id);
                assertNull(element.fairShareBySuggestion, element.id);
            }
        }
    }

    @Test
    void anOperationsShareIsAllWeightProportional() {
        DetailedFairShare x = result.element("x").fairShare();
        assertEquals(x.total(), x.weightProportional());
        assertEquals(0.0, x.strongGuarantee().max());
        assertEquals(0.1, x.total().cpu(), 1e-12);
    }
}
