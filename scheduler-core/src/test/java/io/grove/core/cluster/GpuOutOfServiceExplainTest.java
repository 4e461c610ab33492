package io.grove.core.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.core.node.NodeCondition;
import io.grove.core.operation.Operation;
import io.grove.core.operation.OperationSpec;
import io.grove.core.pool.PoolConfig;
import io.grove.core.resource.Resources;
import io.grove.core.schedule.Heartbeat;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A GPU job that fits nowhere because GPUs are out of service is told which and why. */
class GpuOutOfServiceExplainTest {

    @Test
    void theExplanationNamesTheGpusOutOfServiceAndWhy() {
        // a node of 2 GPUs, one out of service: it offers 1
        ClusterHarness h = ClusterHarness.withPools(PoolConfig.builder("train"))
                .node("g1", new Resources(8, 16, 1, 64L << 30, 0));
        Operation op = h.submit("op", OperationSpec.builder().pool("train").jobs(1, new Resources(1, 1, 2, 1L << 30, 0)).build());
        h.rounds(1, Duration.ofSeconds(1));
        assertEquals(0, h.running("op"));
        Heartbeat plain = h.pendingHeartbeat("g1");
        h.cluster().heartbeat(new Heartbeat(plain.nodeId(), plain.tags(), plain.resourceLimits(), plain.resourceUsage(),
                plain.runningJobs(), plain.finishedJobs(), false,
                new NodeCondition(-1, null, List.of("gpu 1 (GPU-bbbb): check failed: Xid 79"))), h.now());
        PendingCheck verdict = PendingExplainer.explain(h.cluster(), op).get(0).verdict();
        assertEquals(PendingCheck.Code.JOB_LARGER_THAN_EVERY_NODE, verdict.code());
        assertTrue(verdict.message().endsWith("; out of service: node g1 gpu 1 (GPU-bbbb): check failed: Xid 79"),
                verdict.message());
    }
}
