package io.grove.core.schedule;

import static io.grove.core.cluster.ClusterHarness.job;
import static io.grove.core.cluster.ClusterHarness.node;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.core.cluster.ClusterHarness;
import io.grove.core.cluster.NodeFit;
import io.grove.core.cluster.PendingCheck;
import io.grove.core.cluster.PendingExplainer;
import io.grove.core.operation.Job;
import io.grove.core.operation.Operation;
import io.grove.core.operation.OperationSpec;
import io.grove.core.operation.TaskSpec;
import io.grove.core.pool.PoolConfig;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A job in a container image starts only on a node that runs images. */
class ImagePlacementTest {

    private static final Duration SECOND = Duration.ofSeconds(1);
    private static final String IMAGE = "registry.example:5000/team/tool:1.2";

    private static OperationSpec imageJobs(int count) {
        return OperationSpec.builder().pool("etl")
                .task(new TaskSpec("main", count, "tool", job(1, 1), Map.of(), 0, IMAGE)).build();
    }

    @Test
    void imageJobsGoOnlyToNodesThatRunImagesAndBareJobsGoEverywhere() {
        ClusterHarness h = ClusterHarness.withPools(PoolConfig.builder("etl"))
                .nodeWithoutImages("plain", node(4, 64), "crun is not installed")
                .node("oci", node(4, 64));
        h.submit("images", imageJobs(8));
        h.rounds(3, SECOND);
        assertEquals(4, h.running("images"), "only the node that runs images takes them");
        for (Job running : h.cluster().registry().operation("images").runningJobs()) {
            assertEquals("oci", running.nodeId());
        }
        Decision plain = h.decisions().stream().filter(d -> d.nodeId().equals("plain")).reduce((a, b) -> b).orElseThrow();
        assertEquals(Decision.IdleCode.NO_IMAGES, plain.idle().get(0).code(), plain.idle().toString());
        assertTrue(plain.idle().get(0).message().contains("crun is not installed"), plain.idle().get(0).message());
        h.submit("bare", OperationSpec.builder().pool("etl").jobs(4, job(1, 1)).build());
        h.rounds(3, SECOND);
        assertEquals(4, h.running("bare"), "the node without images takes the bare jobs");
    }

    @Test
    void anImageOperationWithNoNodeThatRunsImagesSaysWhy() {
        ClusterHarness h = ClusterHarness.withPools(PoolConfig.builder("etl"))
                .nodeWithoutImages("a", node(4, 64), "no OCI runtime (install crun)")
                .nodeWithoutImages("b", node(4, 64), "no OCI runtime (install crun)");
        Operation op = h.submit("op", imageJobs(2));
        h.rounds(2, SECOND);
        assertEquals(0, h.running("op"));
        List<String> why = NodeFit.tasksLargerThanEveryNode(h.cluster().nodes(), op, "physical");
        assertEquals(1, why.size(), why.toString());
        assertTrue(why.get(0).contains("runs container images") && why.get(0).contains("install crun"), why.get(0));
        PendingCheck blocking = PendingExplainer.explain(h.cluster(), op).get(0).verdict();
        assertEquals(PendingCheck.Code.NO_IMAGE_NODE, blocking.code(), blocking.message());
        assertTrue(blocking.message().contains(IMAGE) && blocking.message().contains("a: no OCI runtime"), blocking.message());
    }

    @Test
    void aStartCarriesItsImage() {
        ClusterHarness h = ClusterHarness.withPools(PoolConfig.builder("etl")).node("n1", node(4, 64));
        h.submit("op", imageJobs(1));
        h.update();
        Decision decision = h.heartbeat("n1");
        assertEquals(IMAGE, decision.starts().get(0).image());
    }
}
