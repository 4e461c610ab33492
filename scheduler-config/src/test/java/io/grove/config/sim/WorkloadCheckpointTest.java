package io.grove.config.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.config.LoadResult;
import io.grove.config.PoolsConfigLoader;
import io.grove.core.cluster.ClusterSettings;
import io.grove.core.operation.Job;
import io.grove.core.sim.Simulator;
import io.grove.core.sim.Workload;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** {@code checkpoint_every} in a workload: its jobs report checkpoints to the scheduler as agents do. */
class WorkloadCheckpointTest {

    static final String POOLS = """
            pool_trees:
              physical:
                pools:
                  a: {}
            """;

    @Test
    void jobsReportACheckpointEveryPeriodFromTheirStart() {
        LoadResult<Workload> workload = WorkloadLoader.load("""
                nodes:
                  - {name: n, count: 1, resources: {cpu: 4}}
                operations:
                  - {name: w, pool: a, jobs: 2, job: {cpu: 1}, duration: forever, checkpoint_every: 30s}
                """, "inline", Path.of("."));
        assertTrue(workload.ok(), workload.describe());
        assertEquals(Duration.ofSeconds(30), workload.value().operations().get(0).checkpointEvery());
        Simulator simulator = new Simulator(PoolsConfigLoader.load(POOLS, "inline").value(), workload.value(),
                ClusterSettings.DEFAULT, 3, () -> 0L);
        simulator.run(Duration.ofSeconds(100));
        for (Job job : simulator.cluster().registry().operation("w-1").runningJobs()) {
            Instant checkpoint = job.lastCheckpoint();
            assertTrue(checkpoint != null, job.id());
            long sinceStart = Duration.between(job.startTime(), checkpoint).toMillis();
            assertTrue(Math.abs(sinceStart - 90_000) < 5 || Math.abs(sinceStart - 60_000) < 5,
                    "the last whole period before the end (to the millisecond the node counts in): " + sinceStart);
        }
        LoadResult<Workload> bad = WorkloadLoader.load("""
                nodes:
                  - {name: n, count: 1, resources: {cpu: 4}}
                operations:
                  - {name: w, pool: a, jobs: 2, job: {cpu: 1}, duration: forever, checkpoint_every: 10ms}
                """, "inline", Path.of("."));
        assertTrue(!bad.ok() && bad.describe().contains("checkpoint_every must be at least 1s"), bad.describe());
    }
}
