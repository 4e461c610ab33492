package io.grove.core.cluster;

import static io.grove.core.cluster.ClusterHarness.job;
import static io.grove.core.cluster.ClusterHarness.node;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.core.operation.OperationSpec;
import io.grove.core.operation.SubmitError;
import io.grove.core.operation.SubmitException;
import io.grove.core.pool.PoolConfig;
import java.time.Instant;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A job larger than every node is refused at submission, as Slurm refuses it; nothing else is. */
class SubmitFitTest {

    static OperationSpec asking(double cpu, String filter) {
        return OperationSpec.builder().pool("research").schedulingTagFilter(filter).jobs(1, job(cpu, 1)).build();
    }

    @Test
    void aJobLargerThanEveryNodeIsRefusedWithWhatItAsksAndTheLargestNode() {
        ClusterHarness h = ClusterHarness.withPools(PoolConfig.builder("research")).node("n1", node(8, 64))
                .node("n2", node(4, 64));
        SubmitException refused = assertThrows(SubmitException.class, () -> SubmitFit.check(h.cluster(), asking(16, null)));
        assertEquals(SubmitError.INVALID_SPEC, refused.code());
        assertTrue(refused.getMessage().contains("task main: a job asks for") && refused.getMessage().contains("16 cpu")
                && refused.getMessage().contains("2 node(s) of tree physical has") && refused.getMessage().contains("8 cpu"),
                refused.getMessage());
        SubmitFit.check(h.cluster(), asking(8, null));
    }

    @Test
    void onlyTheNodesItsTagFilterMatchesCount() {
        ClusterHarness h = ClusterHarness.withPools(PoolConfig.builder("research")).node("big", node(64, 256), "gpu")
                .node("small", node(8, 64));
        SubmitFit.check(h.cluster(), asking(32, null));
        SubmitException refused = assertThrows(SubmitException.class, () -> SubmitFit.check(h.cluster(), asking(32, "!gpu")));
        assertTrue(refused.getMessage().contains("that match its scheduling tag filter"), refused.getMessage());
        SubmitFit.check(h.cluster(), asking(32, "ssd"));   // no node matches: explained later, not refused
    }

    @Test
    void aTreeWhoseNodesHaveNotSaidWhatTheyHaveRefusesNothing() {
        ClusterHarness none = ClusterHarness.withPools(PoolConfig.builder("research"));
        SubmitFit.check(none.cluster(), asking(1000, null));
        // after a restart, a node with running jobs is known before it reconnects, with nothing yet
        none.submit("op-0", asking(1, null));
        none.cluster().revival().restoreRunningJob("op-0", "op-0-1", "main", 0, 0, "n9", "physical",
                Instant.parse("2026-11-28T10:00:00Z"), Set.of(), 0, Instant.parse("2026-11-28T10:00:00Z"));
        SubmitFit.check(none.cluster(), asking(1000, null));
    }

    @Test
    void aNodeCountsByTheMostItHasOfferedThoughABrokerHoldsPartOfItNow() {
        ClusterHarness h = ClusterHarness.withPools(PoolConfig.builder("research")).node("n1", node(8, 64));
        h.cluster().node("n1").heard(Set.of(), node(2, 64), h.now());
        assertEquals(2, h.cluster().node("n1").limits().cpu(), 1e-9);
        SubmitFit.check(h.cluster(), asking(4, null));
        assertThrows(SubmitException.class, () -> SubmitFit.check(h.cluster(), asking(16, null)));
    }
}
