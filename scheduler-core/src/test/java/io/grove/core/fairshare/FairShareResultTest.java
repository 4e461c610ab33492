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

    @Test
    void anOperationsShareIsAllWeightProportional() {
        DetailedFairShare x = result.element("x").fairShare();
        assertEquals(x.total(), x.weightProportional());
        assertEquals(0.0, x.strongGuarantee().max());
        assertEquals(0.1, x.total().cpu(), 1e-12);
    }
}
