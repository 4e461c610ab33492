package io.grove.core.cluster;

import static io.grove.core.cluster.ClusterHarness.job;
import static io.grove.core.cluster.ClusterHarness.node;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.core.forecast.ForecastSnapshot;
import io.grove.core.forecast.StartForecast;
import io.grove.core.operation.Dependency;
import io.grove.core.operation.Job;
import io.grove.core.operation.OperationSpec;
import io.grove.core.operation.OperationState;
import io.grove.core.pool.PoolConfig;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** An operation that depends on others starts nothing until they end as it asks, and is aborted when they cannot. */
class DependencyTest {

    static final Duration SECOND = Duration.ofSeconds(1);

    static OperationSpec.Builder ops(int jobs) {
        return OperationSpec.builder().pool("research").jobs(jobs, job(1, 1));
    }

    ClusterHarness harness() {
        return ClusterHarness.withPools(PoolConfig.builder("research")).node("n1", node(8, 64));
    }

    static PendingCheck verdict(ClusterHarness h, String id) {
        return PendingExplainer.explain(h.cluster(), h.cluster().registry().operation(id)).get(0).verdict();
    }

    @Test
    void itWaitsWithoutAFairShareUntilWhatItWaitsForCompletes() {
        ClusterHarness h = harness();
        h.submit("a", ops(2).build());
        h.jobsOf("a", Duration.ofSeconds(10));
        h.submit("b", ops(2).after("a", Dependency.Condition.COMPLETED).build());
        h.rounds(3, SECOND);
        assertEquals(2, h.running("a"));
        assertEquals(0, h.running("b"), "room on n1, but b waits for a");
        assertNull(h.cluster().fairShare("physical").elements().get("b"), "no demand, no fair share while it waits");
        PendingCheck waits = verdict(h, "b");
        assertEquals(PendingCheck.Code.DEPENDENCY, waits.code());
        assertTrue(waits.message().startsWith("it waits for operation a to complete (running, 0 of 2 jobs completed)"),
                waits.message());
        h.rounds(10, SECOND);
        assertEquals(OperationState.COMPLETED, h.cluster().registry().operation("a").state());
        assertEquals(2, h.running("b"), "a completed: b runs");
    }

    @Test
    void whenWhatItWaitsForFailsItIsAbortedWithWhyAndSoAreThoseThatWaitForItToComplete() {
        ClusterHarness h = harness();
        h.submit("a", ops(1).maxFailedJobCount(0).build());
        h.submit("b", ops(1).after("a", Dependency.Condition.COMPLETED).build());
        h.submit("c", ops(1).after("b", Dependency.Condition.COMPLETED).build());
        h.submit("d", ops(1).after("b", Dependency.Condition.FINISHED).build());
        h.rounds(1, SECOND);
        Job running = h.cluster().registry().operation("a").runningJobs().get(0);
        h.machine(running.nodeId()).fail(running.id());
        h.rounds(2, SECOND);
        assertEquals(OperationState.FAILED, h.cluster().registry().operation("a").state());
        assertEquals(OperationState.ABORTED, h.cluster().registry().operation("b").state());
        assertEquals("operation a ended failed, and this one waited for a to complete: it can never start",
                h.cluster().registry().operation("b").finalMessage());
        assertEquals(OperationState.ABORTED, h.cluster().registry().operation("c").state(), "its own dependents follow");
        h.rounds(1, SECOND);
        assertEquals(1, h.running("d"), "d waited for b to finish however it ended: it runs");
    }

    @Test
    void theForecastStartsItWhenWhatItWaitsForEnds() {
        ClusterHarness h = harness();
        h.submit("past", ops(2).build());
        h.jobsOf("past", Duration.ofSeconds(60));
        h.rounds(62, SECOND);
        h.submit("a", ops(2).build());
        h.jobsOf("a", Duration.ofSeconds(60));
        h.submit("b", ops(2).after("a", Dependency.Condition.COMPLETED).build());
        h.rounds(1, SECOND);
        Instant startedA = h.cluster().registry().operation("a").runningJobs().get(0).startTime();
        StartForecast.Prediction b = StartForecast.predict(ForecastSnapshot.take(h.cluster(), h.now()), "b", 1,
                Duration.ofSeconds(5).toNanos(), System::nanoTime);
        assertNull(b.unknown(), b.toString());
        Instant likely = b.nextStart().likely();
        assertTrue(!likely.isBefore(startedA.plusSeconds(60)) && !likely.isAfter(startedA.plusSeconds(61)),
                "when a completes (at the update and heartbeat after it), not now: " + likely);
    }
}
