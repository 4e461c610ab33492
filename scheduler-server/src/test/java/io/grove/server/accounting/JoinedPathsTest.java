package io.grove.server.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.grove.core.pool.PoolTreeConfig;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class JoinedPathsTest {

    @Test
    void aPathIsJoinedOncePerListAndTheCacheForgetsWholePastItsBound() {
        JoinedPaths paths = new JoinedPaths();
        List<String> toRoot = List.of("alice", "research", PoolTreeConfig.ROOT);
        String joined = paths.of(toRoot);
        assertEquals("research/alice", joined);
        assertSame(joined, paths.of(toRoot), "the same list: the same string, not joined again");
        assertEquals("research/alice", paths.of(new ArrayList<>(toRoot)), "an equal list is joined alike");
        for (int i = 0; i < JoinedPaths.MAX + 10; i++) {
            assertEquals("p" + i, paths.of(List.of("p" + i, PoolTreeConfig.ROOT)));
        }
        assertEquals("research/alice", paths.of(toRoot));
    }
}
