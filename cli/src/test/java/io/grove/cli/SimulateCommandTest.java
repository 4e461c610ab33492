package io.grove.cli;

import static io.grove.cli.GroveCliTest.grove;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SimulateCommandTest {

    private static final Path CONFIG = Path.of("..", "config");

    @Test
    void theExampleWorkloadRunsAndWritesItsReport(@TempDir Path dir) throws IOException {
        GroveCliTest.Run run = grove("simulate", "--pools", CONFIG.resolve("pools.yaml").toString(),
                "--workload", CONFIG.resolve("workloads/example.yaml").toString(), "--duration", "4m",
                "--seed", "5", "--output", dir.toString());
        assertEquals(0, run.exitCode(), run.err() + run.out());
        assertTrue(run.out().contains("physical/etl"), run.out());
        assertTrue(run.out().contains("invariant violations: 0"), run.out());
        JsonNode summary = new ObjectMapper().readTree(dir.resolve("summary.json").toFile());
        assertEquals(5, summary.get("seed").asLong());
        JsonNode etl = summary.get("pools").get("physical").get("etl");
        for (String key : new String[] {"mean_usage_share", "mean_fair_share", "final_usage_share", "final_fair_share",
                "starving_seconds"}) {
            assertTrue(etl.has(key), key);
        }
        for (String key : new String[] {"utilization", "heartbeats", "jobs_started", "jobs_preempted", "lost_work",
                "invariant_violations", "decision_seconds", "fair_share_update_seconds"}) {
            assertTrue(summary.has(key), key);
        }
        assertTrue(summary.get("jobs_started").asLong() > 100);
        assertTrue(summary.get("utilization").get("cpu").asDouble() > 0.5);
        String csv = Files.readString(dir.resolve("timeseries.csv"));
        assertTrue(csv.startsWith("seconds,tree,pool,usage_share,fair_share,demand_share,starving\n"));
        assertTrue(Files.readString(dir.resolve("chart.html")).contains("<svg"));
    }

    @Test
    void theSameSeedGivesTheSameRun() {
        String[] args = {"simulate", "--pools", CONFIG.resolve("pools.yaml").toString(), "--workload",
            CONFIG.resolve("workloads/example.yaml").toString(), "--duration", "3m", "--seed", "9"};
        String first = grove(args).out().replaceAll("wall clock: .*", "");
        String second = grove(args).out().replaceAll("wall clock: .*", "");
        assertEquals(first, second);
    }

    @Test
    void aBadWorkloadIsReportedWithLines(@TempDir Path dir) throws IOException {
        Path workload = dir.resolve("bad.yaml");
        Files.writeString(workload, """
                heartbeat_period: 1s
                nodes:
                  - {name: n, count: 2, resources: {cpu: 4}}
                operations:
                  - {name: a, jobs: 3, job: {cpu: 1}, durration: 10s}
                events:
                  - {at: 1m, node_loss: [n-7]}
                """);
        GroveCliTest.Run run = grove("simulate", "--pools", CONFIG.resolve("pools.yaml").toString(),
                "--workload", workload.toString());
        assertEquals(1, run.exitCode());
        assertTrue(run.err().contains("unknown key 'durration' (did you mean 'duration'?)"), run.err());
        assertTrue(run.err().contains("no node 'n-7'"), run.err());
        assertTrue(run.err().contains(":5"), run.err());
    }
}
