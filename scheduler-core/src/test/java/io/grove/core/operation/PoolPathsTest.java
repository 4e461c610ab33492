package io.grove.core.operation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.grove.core.pool.PoolConfig;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.pool.PoolsConfig;
import io.grove.core.resource.Resources;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** An operation's paths to its pools' roots: made once, made again when it moves or the trees change. */
class PoolPathsTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private static PoolsConfig trees(PoolConfig.Builder... pools) {
        List<PoolConfig> built = Arrays.stream(pools).map(PoolConfig.Builder::build).toList();
        return new PoolsConfig("t", Map.of("t", PoolTreeConfig.withPools("t", built)));
    }

    @Test
    void keptUntilTheOperationMovesOrTheTreesAreReloaded() {
        OperationRegistry registry = new OperationRegistry(trees(PoolConfig.builder("top")
                .child(PoolConfig.builder("a")).child(PoolConfig.builder("b"))));
        Operation operation = registry.submit("op-1",
                OperationSpec.builder().pool("a").jobs(1, Resources.cpu(1)).build(), "alice", T0);

        Map<String, List<String>> first = registry.pathsToRoot(operation);
        assertEquals(Map.of("t", List.of("a", "top", PoolTreeConfig.ROOT)), first);
        assertSame(first, registry.pathsToRoot(operation), "made once, shared by every event and record");
        assertThrows(UnsupportedOperationException.class, () -> first.put("x", List.of()));
        assertThrows(UnsupportedOperationException.class, () -> first.get("t").add("x"));

        registry.update("op-1", null, null, null, "b");
        Map<String, List<String>> moved = registry.pathsToRoot(operation);
        assertEquals(List.of("b", "top", PoolTreeConfig.ROOT), moved.get("t"));

        // a reload moves b from under top to the root: the path is made again
        registry.reconfigure(trees(PoolConfig.builder("top").child(PoolConfig.builder("a")), PoolConfig.builder("b")));
        Map<String, List<String>> reloaded = registry.pathsToRoot(operation);
        assertNotSame(moved, reloaded);
        assertEquals(List.of("b", PoolTreeConfig.ROOT), reloaded.get("t"));
        assertSame(reloaded, registry.pathsToRoot(operation));
    }
}
