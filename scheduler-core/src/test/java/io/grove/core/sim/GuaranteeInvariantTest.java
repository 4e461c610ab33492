package io.grove.core.sim;

import static io.grove.core.cluster.ClusterHarness.job;
import static io.grove.core.cluster.ClusterHarness.node;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.core.cluster.ClusterHarness;
import io.grove.core.operation.Job;
import io.grove.core.operation.OperationSpec;
import io.grove.core.pool.PartialResources;
import io.grove.core.pool.PoolConfig;
import io.grove.core.resource.ResourceType;
import io.grove.core.schedule.Decision;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The simulator's check that preemption never takes a pool below its strong guarantee: a decision
 * that would is reported, one that takes from a pool above its guarantee, or from inside the
 * starving operation's own pool, is not. (The seeded simulations run it after every heartbeat.)
 */
class GuaranteeInvariantTest {

    static ClusterHarness cluster() {
        ClusterHarness h = ClusterHarness.withPools(
                PoolConfig.builder("guaranteed").strongGuarantee(PartialResources.of(ResourceType.CPU, 2)),
                PoolConfig.builder("free"), PoolConfig.builder("starving")).node("n1", node(4, 16));
        h.submit("kept", OperationSpec.builder().pool("guaranteed").jobs(2, job(1, 1)).build());
        h.submit("loose", OperationSpec.builder().pool("free").jobs(2, job(1, 1)).build());
        h.rounds(1, Duration.ofSeconds(1));
        h.submit("hungry", OperationSpec.builder().pool("starving").jobs(2, job(1, 1)).build());
        h.rounds(1, Duration.ofSeconds(1));
        return h;
    }

    static Decision taking(ClusterHarness h, String operation, String preemptor) {
        Job victim = h.cluster().registry().operation(operation).runningJobs().get(0);
        return new Decision("n1", "physical", List.of(), List.of(new Decision.JobPreemption(victim.id(), operation,
                Decision.PreemptionReason.STARVATION, preemptor, null, Duration.ZERO, "test")), List.of(), List.of(), true);
    }

    @Test
    void takingAJobOfAPoolAtItsGuaranteeIsAViolationAndOfOneWithoutNone() {
        ClusterHarness h = cluster();
        assertEquals(2, h.running("kept"));
        List<String> found = Invariants.guarantees(h.cluster(), taking(h, "kept", "hungry"));
        assertEquals(1, found.size(), found.toString());
        assertTrue(found.get(0).startsWith("pool guaranteed is taken below its strong guarantee of 2.0 cpu (it uses 2.0, "
                + "1.0 taken) for hungry"), found.get(0));
        assertEquals(List.of(), Invariants.guarantees(h.cluster(), taking(h, "loose", "hungry")));
        assertEquals(List.of(), Invariants.guarantees(h.cluster(), taking(h, "kept", "kept")),
                "within the starving operation's own pool the guarantee is its own");
    }
}
