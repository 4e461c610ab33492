package io.grove.config.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.config.LoadResult;
import io.grove.core.operation.OperationSpec;
import io.grove.core.operation.PreemptionMode;
import io.grove.core.operation.TaskSpec;
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
        assertTrue(text.contains("a job must ask for some cpu or memory"), text);
        assertEquals(null, loaded.value());
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
}
