package io.grove.core.cluster;

import static io.grove.core.cluster.ClusterHarness.job;
import static io.grove.core.cluster.ClusterHarness.node;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.grove.core.operation.OperationSpec;
import io.grove.core.pool.PoolConfig;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Which nodes are asked to heartbeat now when work arrives: nodes with room, as many as the new
 * operations have jobs waiting, up to the limit, and never twice for the same work.
 */
class NewWorkNodesTest {

    static ClusterHarness tenIdleNodes() {
        ClusterHarness h = ClusterHarness.withPools(PoolConfig.builder("prod"));
        for (int i = 0; i < 10; i++) {
            h.node("n" + i, node(4, 16));
        }
        h.advance(Duration.ofSeconds(1));
        return h;
    }

    @Test
    void aJobOfOneAsksOneNodeAndTheSameWorkIsNotAskedForTwice() {
        ClusterHarness h = tenIdleNodes();
        h.submit("one", OperationSpec.builder().pool("prod").jobs(1, job(1, 1)).build());
        h.update();
        assertEquals(1, h.cluster().nodesForNewWork(h.now(), Duration.ZERO, 64).size());
        assertEquals(0, h.cluster().nodesForNewWork(h.now(), Duration.ZERO, 64).size(), "asked once");
        h.update();
        assertEquals(0, h.cluster().nodesForNewWork(h.now(), Duration.ZERO, 64).size(), "nothing new in the update");
    }

    @Test
    void manyJobsAskEveryNodeWithRoomUpToTheLimit() {
        ClusterHarness h = tenIdleNodes();
        h.submit("three", OperationSpec.builder().pool("prod").jobs(3, job(1, 1)).build());
        h.submit("two", OperationSpec.builder().pool("prod").jobs(2, job(1, 1)).build());
        h.update();
        assertEquals(5, h.cluster().nodesForNewWork(h.now(), Duration.ZERO, 64).size(), "3 + 2 jobs waiting");
        h.submit("wide", OperationSpec.builder().pool("prod").jobs(100, job(1, 1)).build());
        h.update();
        assertEquals(4, h.cluster().nodesForNewWork(h.now(), Duration.ZERO, 4).size(), "the limit");
        h.submit("more", OperationSpec.builder().pool("prod").jobs(100, job(1, 1)).build());
        h.update();
        assertEquals(10, h.cluster().nodesForNewWork(h.now(), Duration.ZERO, 64).size(), "every node with room");
    }

    @Test
    void aJobNoNodeHasRoomForAsksNone() {
        ClusterHarness h = tenIdleNodes();
        h.submit("huge", OperationSpec.builder().pool("prod").jobs(1, job(64, 1)).build());
        h.update();
        assertEquals(0, h.cluster().nodesForNewWork(h.now(), Duration.ZERO, 64).size());
    }
}
