package io.grove.server.metrics;

import static io.grove.core.cluster.ClusterHarness.job;
import static io.grove.core.cluster.ClusterHarness.node;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.grove.core.cluster.ClusterHarness;
import io.grove.core.operation.Job;
import io.grove.core.operation.Operation;
import io.grove.core.operation.OperationSpec;
import io.grove.core.pool.EphemeralSubpoolConfig;
import io.grove.core.pool.PartialResources;
import io.grove.core.pool.PoolConfig;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.pool.PoolsConfig;
import io.grove.core.resource.ResourceType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The metrics a daemon exports: pool resources in YuniKorn's shape, operations by state, wait
 * histograms; series of pools that are gone are removed; and every metric is in docs/metrics.md.
 */
class SchedulerMetricsTest {

    private static final Duration SECOND = Duration.ofSeconds(1);

    static ClusterHarness cluster() {
        return ClusterHarness.withPools(
                PoolConfig.builder("prod").strongGuarantee(PartialResources.of(ResourceType.CPU, 2))
                        .limits(PartialResources.of(ResourceType.CPU, 6)),
                PoolConfig.builder("spare"),
                PoolConfig.builder("research").createEphemeralSubpools(new EphemeralSubpoolConfig(null, 3, 5, null)))
                .node("n1", node(8, 32));
    }

    /** A daemon's metrics after a few rounds of the harness: started jobs with their operations' submit times. */
    static SchedulerMetrics metrics(ClusterHarness h) {
        SchedulerMetrics metrics = new SchedulerMetrics();
        h.rounds(2, SECOND);
        for (Operation operation : h.cluster().registry().operations()) {
            for (Job job : operation.runningJobs()) {
                metrics.jobStarted(job, operation.submitTime());
            }
        }
        metrics.fairShareUpdated(2_000_000);
        metrics.refresh(h.cluster(), h.now());
        return metrics;
    }

    @Test
    void poolResourcesAreExportedByStateInTheResourcesUnits() {
        ClusterHarness h = cluster();
        h.submit("op", OperationSpec.builder().pool("prod").jobs(10, job(1, 1)).build());
        String scrape = metrics(h).scrape();

        assertEquals(2, value(scrape, "grove_pool_resource", "pool=\"prod\",resource=\"cpu\",state=\"guarantee\""));
        assertEquals(6, value(scrape, "grove_pool_resource", "pool=\"prod\",resource=\"cpu\",state=\"limit\""));
        assertEquals(6, value(scrape, "grove_pool_resource", "pool=\"prod\",resource=\"cpu\",state=\"usage\""), 1e-9);
        assertEquals(10, value(scrape, "grove_pool_resource", "pool=\"prod\",resource=\"cpu\",state=\"demand\""), 1e-9);
        assertEquals(6, value(scrape, "grove_pool_resource", "pool=\"prod\",resource=\"cpu\",state=\"fair_share\""), 1e-9);
        assertFalse(scrape.contains("pool=\"spare\",resource=\"cpu\",state=\"limit\""), "no limit configured, no series");
        assertFalse(scrape.contains("resource=\"gpu\""), "the tree has no GPUs");
        assertEquals(1, value(scrape, "grove_pool_operations", "pool=\"prod\",state=\"running\""));
        assertTrue(scrape.contains("grove_job_wait_seconds_bucket{tree=\"physical\""), scrape);
        assertEquals(6, value(scrape, "grove_job_wait_seconds_count", "tree=\"physical\""));
    }

    @Test
    void seriesOfPoolsThatAreGoneAreRemoved() {
        ClusterHarness h = cluster();
        h.submit("mine", "bob", OperationSpec.builder().pool("research").jobs(1, job(1, 1)).build());
        SchedulerMetrics metrics = metrics(h);
        assertTrue(metrics.scrape().contains("pool=\"research$bob\""), metrics.scrape());
        assertTrue(metrics.scrape().contains("pool=\"spare\""));

        h.cluster().abort("mine", h.now(), "done");
        h.cluster().reconfigure(new PoolsConfig("physical", Map.of("physical", PoolTreeConfig.withPools("physical",
                List.of(PoolConfig.builder("prod").build(), PoolConfig.builder("research")
                        .createEphemeralSubpools(new EphemeralSubpoolConfig(null, 3, 5, null)).build())))));
        h.rounds(1, SECOND);
        metrics.refresh(h.cluster(), h.now());

        String scrape = metrics.scrape();
        assertFalse(scrape.contains("research$bob"), "the ephemeral pool went with its operation:\n" + scrape);
        assertFalse(scrape.contains("pool=\"spare\""), "the pool the reload removed:\n" + scrape);
        assertTrue(scrape.contains("pool=\"prod\""));
    }

    @Test
    void everyExportedMetricIsDocumented() throws IOException {
        ClusterHarness h = cluster();
        h.submit("op", OperationSpec.builder().pool("research").jobs(2, job(1, 1)).build());
        SchedulerMetrics metrics = metrics(h);
        metrics.heartbeat(null, 1000);
        metrics.reload(true);
        metrics.reload(false);
        String documented = Files.readString(docs().resolve("metrics.md"));
        Set<String> missing = new TreeSet<>();
        for (String family : families(metrics.scrape())) {
            if (!documented.contains("`" + family + "`")) {
                missing.add(family);
            }
        }
        assertEquals(Set.of(), missing, "metrics the daemon exports that docs/metrics.md does not describe");
    }

    @Test
    void theProcessIsExportedAsEveryJvmServiceExportsIt() {
        SchedulerMetrics metrics = new SchedulerMetrics();
        try {
            String scraped = metrics.scrape();
            for (String family : List.of("jvm_memory_used_bytes", "jvm_memory_max_bytes", "jvm_threads_live_threads",
                    "jvm_classes_loaded_classes", "process_cpu_usage", "process_cpu_time_ns_total", "process_uptime_seconds",
                    "process_files_open_files", "process_files_max_files", "system_cpu_count")) {
                assertTrue(scraped.contains("# HELP " + family + " "), family + " in " + scraped);
            }
        } finally {
            metrics.close();
        }
    }

    @Test
    void everyExpressionOfTheGrafanaBoardNamesAMetricTheDaemonExports() throws IOException {
        ClusterHarness h = cluster();
        h.submit("op", OperationSpec.builder().pool("prod").jobs(2, job(1, 1)).build());
        SchedulerMetrics metrics = metrics(h);
        metrics.heartbeat(null, 1000);
        Set<String> exported = families(metrics.scrape());
        JsonNode board = new ObjectMapper().readTree(docs().resolveSibling("deploy/grafana/grove.json").toFile());
        List<String> expressions = new ArrayList<>();
        board.findValues("expr").forEach(e -> expressions.add(e.asText()));
        board.path("templating").path("list").forEach(v -> expressions.add(v.path("definition").asText()));
        assertTrue(expressions.size() >= 10, "the board's expressions: " + expressions);
        Set<String> unknown = new TreeSet<>();
        for (String expression : expressions) {
            Matcher name = Pattern.compile("grove_[a-z_]+").matcher(expression);
            assertTrue(name.find(), "an expression without a Grove metric: " + expression);
            do {
                String metric = name.group().replaceAll("_(bucket|count|sum)$", "");
                if (!exported.contains(metric)) {
                    unknown.add(metric + " in " + expression);
                }
            } while (name.find());
        }
        assertEquals(Set.of(), unknown, "the board names metrics the daemon does not export");
    }

    /** The metric families of a scrape, as their {@code # TYPE} lines name them. */
    static Set<String> families(String scrape) {
        Set<String> names = new TreeSet<>();
        Matcher type = Pattern.compile("^# TYPE (\\S+) ", Pattern.MULTILINE).matcher(scrape);
        while (type.find()) {
            names.add(type.group(1));
        }
        return names;
    }

    static Path docs() {
        Path here = Path.of("").toAbsolutePath();
        while (here != null && !Files.isDirectory(here.resolve("docs"))) {
            here = here.getParent();
        }
        return here.resolve("docs");
    }

    private static double value(String scrape, String name, String labels) {
        for (String line : scrape.lines().toList()) {
            if (line.startsWith(name + "{") && line.contains(labels)) {
                return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        throw new AssertionError("no " + name + " with " + labels + " in\n" + scrape);
    }
}
