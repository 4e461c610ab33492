package io.grove.config.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.config.LoadResult;
import io.grove.core.operation.GangTopology;
import io.grove.core.operation.OperationSpec;
import io.grove.core.operation.PreemptionMode;
import io.grove.core.operation.TaskSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

class OperationSpecLoaderTest {

    @Test
    void aFullSpecInYaml() {
        LoadResult<OperationSpec> loaded = OperationSpecLoader.load("""
                title: nightly
                pool: etl
                pool_trees: [physical, gpu]
                scheduling_options_per_pool_tree:
                  gpu: {pool: training, weight: 2, resource_limits: {gpu: 4}}
                weight: 3
                resource_limits: {cpu: 40}
                max_failed_job_count: 2
                preemption_mode: graceful
                tasks:
                  prepare: {job_count: 1, command: "echo prep", cpu: 2, memory: 1Gi}
                  work: {job_count: 10, command: "./work.sh $GROVE_JOB_INDEX", cpu: 0.5, memory: 512Mi, env: {MODE: fast}}
                """, "spec.yaml");
        assertTrue(loaded.ok(), loaded.describe());
        OperationSpec spec = loaded.value();
        assertEquals("etl", spec.pool());
        assertEquals(java.util.List.of("physical", "gpu"), spec.poolTrees());
        assertEquals("training", spec.optionsFor("gpu").pool());
        assertEquals(2.0, spec.optionsFor("gpu").weight());
        assertEquals(3.0, spec.optionsFor("physical").weight());
        assertEquals(4, spec.optionsFor("gpu").resourceLimits().gpu());
        assertEquals(40, spec.resourceLimits().cpu());
        assertEquals(PreemptionMode.GRACEFUL, spec.preemptionMode());
        TaskSpec work = spec.tasks().get("work");
        assertEquals(10, work.jobCount());
        assertEquals(0.5, work.jobResources().cpu());
        assertEquals(512.0 * 1024 * 1024, work.jobResources().memory());
        assertEquals(1, work.jobResources().userSlots());
        assertEquals("fast", work.env().get("MODE"));
        assertEquals(11, spec.jobCount());
    }

    @Test
    void aTaskMaySayHowLongItsJobsRun() {
        LoadResult<OperationSpec> loaded = OperationSpecLoader.load(
                "tasks:\n  main: {job_count: 2, command: \"true\", expected_duration: 10m}\n", "spec.yaml");
        org.junit.jupiter.api.Assertions.assertTrue(loaded.ok(), loaded.describe());
        org.junit.jupiter.api.Assertions.assertEquals(java.time.Duration.ofMinutes(10),
                loaded.value().tasks().get("main").expectedDuration());
        LoadResult<OperationSpec> bad = OperationSpecLoader.load("tasks: {main: {job_count: 1, command: x, "
                + "expected_duration: soon}}", "spec.yaml");
        org.junit.jupiter.api.Assertions.assertTrue(bad.describe().contains("expected_duration"), bad.describe());
    }

    @Test
    void anOperationsOwnStarvationAndPreemptionSettings() {
        LoadResult<OperationSpec> loaded = OperationSpecLoader.load("""
                fair_share_starvation_tolerance: 0.5
                fair_share_starvation_timeout: 2m
                non_preemptible_resource_usage_threshold: {cpu: 4}
                tasks:
                  main: {job_count: 1, command: "true", cpu: 1}
                """, "spec.yaml");
        assertTrue(loaded.ok(), loaded.describe());
        io.grove.core.operation.OperationPreemption own = loaded.value().preemption();
        assertEquals(0.5, own.fairShareStarvationTolerance());
        assertEquals(120_000L, own.fairShareStarvationTimeoutMillis());
        assertEquals(4, own.nonPreemptibleResourceUsageThreshold().cpu());
        assertTrue(Double.isInfinite(own.nonPreemptibleResourceUsageThreshold().memory()), "unset: no threshold");

        String refused = OperationSpecLoader.load("""
                fair_share_starvation_tolerance: 1.5
                tasks:
                  main: {job_count: 1, command: "true", cpu: 1}
                """, "spec.yaml").describe();
        assertTrue(refused.contains("spec.yaml:1") && refused.contains("fair_share_starvation_tolerance")
                && refused.contains("within [0, 1]"), refused);
        assertEquals(io.grove.core.operation.OperationPreemption.NONE, OperationSpecLoader.load(
                "{\"tasks\": {\"main\": {\"job_count\": 1, \"command\": \"true\", \"cpu\": 1}}}", "api").value().preemption());
    }

    @Test
    void yamlNumbersThatAreNoAmountsAreRefusedWithTheirPlace() {
        for (String bad : List.of(".nan", ".inf", "-.inf", "0x1F", "0o17", "12:30:00")) {
            for (String field : List.of("resource_limits", "non_preemptible_resource_usage_threshold")) {
                LoadResult<OperationSpec> loaded = OperationSpecLoader.load(field + ": {cpu: " + bad + "}\n"
                        + "tasks:\n  main: {job_count: 1, command: \"true\", cpu: 1}\n", "spec.yaml");
                assertTrue(!loaded.ok() && loaded.describe().contains("spec.yaml:1") && loaded.describe().contains(field)
                        && (loaded.describe().contains("expected a finite amount") || loaded.describe().contains("not a number")),
                        bad + " in " + field + ": "
                        + loaded.describe());
            }
            LoadResult<OperationSpec> task = OperationSpecLoader.load("tasks:\n  main: {job_count: 1, command: \"true\", "
                    + "cpu: " + bad + "}\n", "spec.yaml");
            assertTrue(!task.ok(), bad + " as a task's cpu: " + task.describe());
        }
    }

    @Test
    void schedulingTagFiltersTopLevelAndPerTreeAreCheckedAtSubmission() {
        LoadResult<OperationSpec> loaded = OperationSpecLoader.load("""
                scheduling_tag_filter: "gpu & !old"
                scheduling_options_per_pool_tree: {cpu: {scheduling_tag: ssd}}
                tasks:
                  main: {job_count: 1, command: "true", cpu: 1}
                """, "spec.yaml");
        assertTrue(loaded.ok(), loaded.describe());
        assertEquals("gpu & !old", loaded.value().optionsFor("physical").schedulingTagFilter());
        assertEquals("ssd", loaded.value().optionsFor("cpu").schedulingTagFilter());

        String refused = OperationSpecLoader.load("""
                scheduling_tag_filter: "gpu & (old"
                tasks:
                  main: {job_count: 1, command: "true", cpu: 1}
                """, "spec.yaml").describe();
        assertTrue(refused.contains("spec.yaml:1") && refused.contains("scheduling_tag_filter"), refused);
        String huge = OperationSpecLoader.load("scheduling_tag_filter: \"" + "(".repeat(5000) + "\"\n"
                + "tasks: {main: {job_count: 1, command: \"true\", cpu: 1}}\n", "spec.yaml").describe();
        assertTrue(huge.contains("at most 1024 characters"), huge);
    }

    @Test
    void jsonWorksToo() {
        LoadResult<OperationSpec> loaded = OperationSpecLoader.load(
                "{\"pool\": \"a\", \"tasks\": {\"main\": {\"job_count\": 2, \"command\": \"true\", \"cpu\": 1}}}", "api");
        assertTrue(loaded.ok(), loaded.describe());
        assertEquals(2, loaded.value().jobCount());
    }

    @Test
    void everyProblemAtOnceWithItsLine() {
        LoadResult<OperationSpec> loaded = OperationSpecLoader.load("""
                pool: etl
                wieght: 2
                tasks:
                  a: {job_count: 0, command: "x", cpu: 1}
                  b: {job_count: 1, cpu: -1}
                  c: {job_count: 1, command: "y"}
                """, "spec.yaml");
        String text = loaded.describe();
        assertTrue(text.contains("spec.yaml:2") && text.contains("unknown key 'wieght' (did you mean 'weight'?)"), text);
        assertTrue(text.contains("job_count' of at least 1, got 0"), text);
        assertTrue(text.contains("a task needs a 'command'"), text);
        assertTrue(text.contains("cpu"), text);
        assertEquals(null, loaded.value());
    }

    @Test
    void aJobWithoutCpuOrdersOneCoreAndNoJobOrdersLessThanTheSmallestQuota() {
        LoadResult<OperationSpec> loaded = OperationSpecLoader.load(
                "{\"tasks\": {\"main\": {\"job_count\": 1, \"command\": \"true\", \"memory\": \"1Gi\"}}}", "api");
        assertTrue(loaded.ok(), loaded.describe());
        assertEquals(1.0, loaded.value().tasks().get("main").jobResources().cpu());
        String zero = OperationSpecLoader.load("tasks: {a: {job_count: 1, command: x, cpu: 0, memory: 1Gi}}",
                "spec.yaml").describe();
        assertTrue(zero.contains("a job orders at least 0.01 cpu"), zero);
        LoadResult<OperationSpec> small = OperationSpecLoader.load("tasks: {a: {job_count: 1, command: x, cpu: 0.25}}",
                "spec.yaml");
        assertEquals(0.25, small.value().tasks().get("a").jobResources().cpu());
    }

    @Test
    void countsThatWouldOverflowAndWeightsThatWouldMakeNaNAreRefused() {
        String overflow = OperationSpecLoader.load("""
                tasks:
                  a: {job_count: 2147483647, command: x, cpu: 1}
                  b: {job_count: 2147483647, command: x, cpu: 1}
                  c: {job_count: 2, command: x, cpu: 1}
                """, "spec.yaml").describe();
        assertTrue(overflow.contains("at most 10000000 jobs over all its tasks, got 4294967296"), overflow);
        String weight = OperationSpecLoader.load("weight: 1.7e308\ntasks: {a: {job_count: 1, command: x, cpu: 1}}",
                "spec.yaml").describe();
        assertTrue(weight.contains("weight must be within"), weight);
        String perTree = OperationSpecLoader.load("scheduling_options_per_pool_tree: {t: {weight: 1e-300}}\n"
                + "tasks: {a: {job_count: 1, command: x, cpu: 1}}", "spec.yaml").describe();
        assertTrue(perTree.contains("weight must be within"), perTree);
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> OperationSpec.builder()
                .weight(1.7e308).jobs(1, io.grove.core.resource.Resources.cpu(1)).build(), "the core refuses it too");
    }

    @Test
    void envNamesMustBeVariableNamesAndEverythingIsBounded() {
        String env = OperationSpecLoader.load("""
                tasks:
                  a: {job_count: 1, command: x, cpu: 1, env: {"A=B; rm -rf /": "1", "1X": "2", OK_NAME: "fine"}}
                """, "spec.yaml").describe();
        assertTrue(env.contains("'A=B; rm -rf /' is not a valid variable name"), env);
        assertTrue(env.contains("'1X' is not a valid variable name"), env);
        assertTrue(!env.contains("OK_NAME"), env);
        String title = OperationSpecLoader.load("title: " + "t".repeat(5000)
                + "\ntasks: {a: {job_count: 1, command: x, cpu: 1}}", "spec.yaml").describe();
        assertTrue(title.contains("title") && title.contains("5000 characters long, above the 1024 allowed"), title);
        assertTrue(title.length() < 1000, "the long text is not echoed back");
        String command = OperationSpecLoader.load("tasks: {a: {job_count: 1, cpu: 1, command: " + "c".repeat(70_000)
                + "}}", "spec.yaml").describe();
        assertTrue(command.contains("70000 characters long, above the 65536 allowed"), command);
        String pool = OperationSpecLoader.load("pool: " + "p".repeat(300) + "\ntasks: {a: {job_count: 1, command: x, cpu: 1}}",
                "spec.yaml").describe();
        assertTrue(pool.contains("300 characters long"), pool);
    }

    @Test
    void noTasksIsAProblem() {
        assertTrue(OperationSpecLoader.load("pool: a", "x").describe().contains("at least one task"));
    }

    @Test
    void theExampleOperationLoads() throws java.io.IOException {
        String text = java.nio.file.Files.readString(java.nio.file.Path.of("..", "config", "operations", "etl.yaml"));
        LoadResult<OperationSpec> loaded = OperationSpecLoader.load(text, "etl.yaml");
        assertTrue(loaded.ok(), loaded.describe());
        assertEquals(24, loaded.value().jobCount());
    }

    @Test
    void theExampleGangLoadsWithItsTopology() throws java.io.IOException {
        String text = java.nio.file.Files.readString(java.nio.file.Path.of("..", "config", "operations", "train.yaml"));
        LoadResult<OperationSpec> loaded = OperationSpecLoader.load(text, "train.yaml");
        assertTrue(loaded.ok(), loaded.describe());
        assertTrue(loaded.value().gang());
        assertEquals(new GangTopology("rack", true), loaded.value().topology());
    }

    @Test
    void aGangTopologyNamesOneLevelRequiredOrPreferredAndOnlyAGangHasOne() {
        assertEquals(new GangTopology("rack", false), OperationSpecLoader.load(
                "is_gang: true\ntopology: {preferred: rack}\ntasks: {main: {job_count: 2, command: x}}", "s").value().topology());
        String both = OperationSpecLoader.load("is_gang: true\ntopology: {required: rack, preferred: block}\n"
                + "tasks: {main: {job_count: 2, command: x}}", "s").describe();
        assertTrue(both.contains("give one of required: LEVEL or preferred: LEVEL"), both);
        String notGang = OperationSpecLoader.load("topology: {required: rack}\ntasks: {main: {job_count: 2, command: x}}",
                "s").describe();
        assertTrue(notGang.contains("s:1: topology: topology places the ranks of a gang: set is_gang: true"),
                notGang);
        String badName = OperationSpecLoader.load("is_gang: true\ntopology: {required: Rack!}\n"
                + "tasks: {main: {job_count: 2, command: x}}", "s").describe();
        assertTrue(badName.contains("'Rack!' is not a topology level name"), badName);
        String huge = OperationSpecLoader.load("is_gang: true\ntasks: {main: {job_count: 5000, command: x}}", "s")
                .describe();
        assertTrue(huge.contains("s:1: is_gang: a gang may have at most 4096 ranks"), huge);
        String unknown = OperationSpecLoader.load("is_gang: true\ntopology: {required: rack, spread: 2}\n"
                + "tasks: {main: {job_count: 2, command: x}}", "s").describe();
        assertTrue(unknown.contains("spread"), unknown);
    }

    @Test
    void aTaskMayRunInAnImageWhoseReferenceIsCheckedAtSubmission() {
        LoadResult<OperationSpec> loaded = OperationSpecLoader.load("tasks: {"
                + "main: {job_count: 2, docker_image: 'registry.example:5000/team/tool:1.2', command: 'tool --fast'},"
                + "own: {job_count: 1, docker_image: 'ubuntu'},"
                + "pinned: {job_count: 1, docker_image: 'localhost/x@sha256:" + "a".repeat(64) + "', command: y},"
                + "bare: {job_count: 1, command: z}}", "spec.yaml");
        assertTrue(loaded.ok(), loaded.describe());
        assertEquals("registry.example:5000/team/tool:1.2", loaded.value().tasks().get("main").image());
        // a task with an image and no command runs the image's own entry point
        assertEquals("docker.io/library/ubuntu:latest", loaded.value().tasks().get("own").image());
        assertEquals("", loaded.value().tasks().get("own").command());
        assertEquals("localhost/x@sha256:" + "a".repeat(64), loaded.value().tasks().get("pinned").image());
        assertEquals(null, loaded.value().tasks().get("bare").image());

        for (String[] bad : new String[][] {{"'Registry.example/UPPER:1'", "UPPER"}, {"'x:bad tag'", "space"},
                {"'x@sha256:12'", "64 lowercase hex"}, {"'x:-1'", "tag"}, {"'host:99999999/x'", "registry"},
                {"''", "empty"}, {"'a//b'", "name component"}}) {
            String said = OperationSpecLoader.load("tasks: {a: {job_count: 1, command: x, docker_image: " + bad[0] + "}}",
                    "spec.yaml").describe();
            assertTrue(said.contains("docker_image") && said.contains(bad[1]), bad[0] + ": " + said);
        }
        String noCommand = OperationSpecLoader.load("tasks: {a: {job_count: 1}}", "spec.yaml").describe();
        assertTrue(noCommand.contains("docker_image"), noCommand);
    }

    @Test
    void aJobMayOrderDiskSpaceWithUnits() {
        LoadResult<OperationSpec> loaded = OperationSpecLoader.load(
                "tasks: {main: {job_count: 1, command: x, disk_space: 10Gi}, other: {job_count: 1, command: y}}", "spec.yaml");
        assertTrue(loaded.ok(), loaded.describe());
        assertEquals(10L << 30, loaded.value().tasks().get("main").diskSpace());
        assertEquals(0, loaded.value().tasks().get("other").diskSpace());
        String bad = OperationSpecLoader.load("tasks: {a: {job_count: 1, command: x, disk_space: lots}}", "spec.yaml").describe();
        assertTrue(bad.contains("disk_space"), bad);
        String huge = OperationSpecLoader.load("tasks: {a: {job_count: 1, command: x, disk_space: 2000000Ti}}", "spec.yaml").describe();
        assertTrue(huge.contains("at most"), huge);
    }

    @Test
    void numbersThatAreNotFiniteOrTooLargeAndDurationsThatOverflowAreProblemsNotCrashes() {
        for (String bad : List.of("cpu: .nan", "cpu: .inf", "cpu: 1e999", "cpu: 1e308", "memory: 1e30", "gpu: -.inf")) {
            LoadResult<OperationSpec> loaded = OperationSpecLoader.load("tasks: {a: {job_count: 1, command: x, " + bad + "}}",
                    "spec.yaml");
            assertEquals(null, loaded.value(), bad);
            assertTrue(loaded.describe().contains("spec.yaml:1"), bad + ": " + loaded.describe());
        }
        String overflow = OperationSpecLoader.load("fair_share_starvation_timeout: 213503982335d\n"
                + "tasks: {a: {job_count: 1, command: x}}", "spec.yaml").describe();
        assertTrue(overflow.contains("too long a duration"), overflow);
    }
}
