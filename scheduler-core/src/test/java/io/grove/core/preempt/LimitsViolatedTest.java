package io.grove.core.preempt;

import static io.grove.core.cluster.ClusterHarness.job;
import static io.grove.core.cluster.ClusterHarness.node;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.core.cluster.ClusterHarness;
import io.grove.core.operation.Job;
import io.grove.core.operation.JobEndReason;
import io.grove.core.operation.OperationSpec;
import io.grove.core.pool.PartialResources;
import io.grove.core.pool.PoolConfig;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.pool.PoolsConfig;
import io.grove.core.resource.ResourceType;
import io.grove.core.resource.Resources;
import io.grove.core.schedule.Decision;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Limits lowered under running jobs take effect by preemption, newest jobs first. */
class LimitsViolatedTest {

    private static final Duration SECOND = Duration.ofSeconds(1);

    private static OperationSpec ops(String pool, int jobs) {
        return OperationSpec.builder().pool(pool).jobs(jobs, job(1, 1)).build();
    }

    private static List<Decision.JobPreemption> limitPreemptions(ClusterHarness h) {
        return h.preemptions().stream().filter(p -> p.reason() == Decision.PreemptionReason.RESOURCE_LIMITS_VIOLATED)
                .toList();
    }

    @Test
    void anOperationWhoseLimitIsLoweredLosesItsNewestJobsDownToTheLimit() {
        ClusterHarness h = ClusterHarness.withPools(PoolConfig.builder("a")).node("n1", node(10, 64));
        h.submit("op", ops("a", 20));
        h.rounds(1, SECOND);
        assertEquals(10, h.running("op"));
        List<String> startOrder = h.decisions().get(0).starts().stream().map(Decision.JobStart::jobId).toList();

        h.cluster().updateOperation("op", null, new Resources(1000, 4, 0, 1e15, 0), null, null);
        h.rounds(1, SECOND);

        assertEquals(4, h.running("op"), "down to the 4 cpu of its new limit at once, nothing starving");
        List<Decision.JobPreemption> taken = limitPreemptions(h);
        assertEquals(6, taken.size());
        assertEquals(startOrder.subList(4, 10).stream().sorted().toList(),
                taken.stream().map(Decision.JobPreemption::jobId).sorted().toList(), "the newest six");
        assertTrue(taken.get(0).message().contains("operation op uses more than its resource_limits"), taken.get(0).message());
        Job ended = h.cluster().registry().operation("op").finishedJobs().get(0);
        assertEquals(JobEndReason.RESOURCE_LIMITS_VIOLATED, ended.endReason());

        h.rounds(10, SECOND);
        assertEquals(4, h.running("op"), "and stays there: nothing more is taken, nothing more starts");
        assertEquals(6, limitPreemptions(h).size());
    }

    @Test
    void aPoolWhoseLimitIsLoweredByAReloadLosesJobsOfItsOperations() {
        ClusterHarness h = ClusterHarness.withPools(PoolConfig.builder("a"), PoolConfig.builder("b"))
                .node("n1", node(12, 64));
        h.submit("a1", ops("a", 6));
        h.submit("a2", ops("a", 6));
        h.submit("b1", ops("b", 3));
        h.rounds(1, SECOND);
        assertEquals(9, h.running("a1") + h.running("a2"));
        assertEquals(3, h.running("b1"));

        PoolTreeConfig lowered = PoolTreeConfig.withPools("physical", List.of(
                PoolConfig.builder("a").limits(PartialResources.of(ResourceType.CPU, 4)).build(),
                PoolConfig.builder("b").build()));
        h.cluster().reconfigure(new PoolsConfig("physical", Map.of("physical", lowered)));
        h.rounds(1, SECOND);

        assertEquals(4, h.running("a1") + h.running("a2"), "pool a is down to its 4 cpu");
        assertEquals(3, h.running("b1"), "pool b is not touched");
        Map<String, Long> byOperation = limitPreemptions(h).stream()
                .collect(Collectors.groupingBy(Decision.JobPreemption::operationId, Collectors.counting()));
        assertEquals(5, byOperation.values().stream().mapToLong(Long::longValue).sum());
        assertTrue(limitPreemptions(h).get(0).message().contains("pool a uses more than its resource_limits"),
                limitPreemptions(h).get(0).message());
    }
}
