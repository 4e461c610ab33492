package io.grove.config.spec;

import io.grove.config.LoadResult;
import io.grove.config.yaml.MapReader;
import io.grove.config.yaml.Problems;
import io.grove.config.yaml.YamlDocument;
import io.grove.core.operation.OperationSpec;
import io.grove.core.operation.OperationType;
import io.grove.core.operation.PreemptionMode;
import io.grove.core.operation.TaskSpec;
import io.grove.core.operation.TreeOptions;
import io.grove.core.pool.PartialResources;
import io.grove.core.pool.ProblemCode;
import io.grove.core.resource.ResourceType;
import io.grove.core.resource.Resources;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads an operation spec (YAML, or JSON, which is YAML too): unknown keys, wrong types, bad units,
 * zero job counts and jobs that ask for nothing are all reported at once with their lines.
 *
 * <pre>
 * pool: etl                      # or none: the user's ephemeral pool
 * pool_trees: [physical]
 * scheduling_options_per_pool_tree: {gpu: {pool: training, weight: 2, resource_limits: {gpu: 4}}}
 * weight: 1
 * resource_limits: {cpu: 40}
 * max_failed_job_count: 10
 * preemption_mode: normal        # or graceful
 * tasks:
 *   main: {job_count: 100, command: "./work.sh", cpu: 1, memory: 2Gi, env: {MODE: fast}}
 * </pre>
 */
public final class OperationSpecLoader {

    private OperationSpecLoader() {
    }

    public static LoadResult<OperationSpec> load(String text, String source) {
        Problems problems = new Problems();
        OperationSpec spec = YamlDocument.parse(text, problems).map(top -> read(top, problems)).orElse(null);
        return new LoadResult<>(problems.isEmpty() ? spec : null, problems.list(), source);
    }

    private static OperationSpec read(MapReader top, Problems problems) {
        OperationType type = top.enumValue("type", OperationType.class);
        String title = top.string("title");
        String pool = top.string("pool");
        List<String> trees = top.strings("pool_trees");
        Map<String, TreeOptions> options = new LinkedHashMap<>();
        for (Map.Entry<String, MapReader> entry : top.namedMaps("scheduling_options_per_pool_tree").entrySet()) {
            MapReader tree = entry.getValue();
            Double weight = positive(tree, "weight", tree.number("weight"));
            PartialResources limits = tree.resources("resource_limits");
            options.put(entry.getKey(), new TreeOptions(tree.string("pool"), weight,
                    limits == null ? null : limits.asLimits()));
            tree.finish();
        }
        Double weight = positive(top, "weight", top.number("weight"));
        PartialResources limits = top.resources("resource_limits");
        Integer maxFailed = top.integer("max_failed_job_count");
        if (maxFailed != null && maxFailed < 0) {
            top.problem("max_failed_job_count", ProblemCode.BAD_VALUE, "must not be negative, got " + maxFailed);
        }
        PreemptionMode mode = top.enumValue("preemption_mode", PreemptionMode.class);
        Boolean gang = top.bool("is_gang");
        Map<String, TaskSpec> tasks = new LinkedHashMap<>();
        for (Map.Entry<String, MapReader> entry : top.namedMaps("tasks").entrySet()) {
            TaskSpec task = task(entry.getKey(), entry.getValue());
            if (task != null) {
                tasks.put(task.name(), task);
            }
            entry.getValue().finish();
        }
        if (tasks.isEmpty() && problems.isEmpty()) {
            problems.add("", "tasks", ProblemCode.MISSING_KEY, "an operation needs at least one task under 'tasks'",
                    top.line());
        }
        top.finish();
        if (!problems.isEmpty()) {
            return null;
        }
        return new OperationSpec(type, title, tasks, pool, trees, options, weight == null ? 1.0 : weight,
                limits == null ? null : limits.asLimits(),
                maxFailed == null ? OperationSpec.DEFAULT_MAX_FAILED_JOB_COUNT : maxFailed, mode,
                gang != null && gang);
    }

    private static Double positive(MapReader reader, String key, Double value) {
        if (value != null && !(value > 0 && value < Double.POSITIVE_INFINITY)) {
            reader.problem(key, ProblemCode.BAD_VALUE, "must be a positive number, got " + value);
            return null;
        }
        return value;
    }

    private static TaskSpec task(String name, MapReader task) {
        Integer count = task.integer("job_count");
        String command = task.string("command");
        Map<ResourceType, Double> values = new java.util.EnumMap<>(ResourceType.class);
        for (ResourceType type : List.of(ResourceType.CPU, ResourceType.MEMORY, ResourceType.GPU, ResourceType.NETWORK)) {
            Double amount = amount(task, type);
            if (amount != null) {
                values.put(type, amount);
            }
        }
        Map<String, String> env = task.stringMap("env");
        boolean ok = true;
        if (count == null || count < 1) {
            task.problem("job_count", count == null ? ProblemCode.MISSING_KEY : ProblemCode.BAD_VALUE,
                    "a task needs 'job_count' of at least 1" + (count == null ? "" : ", got " + count));
            ok = false;
        }
        if (command == null || command.isBlank()) {
            task.problem("command", ProblemCode.MISSING_KEY, "a task needs a 'command'");
            ok = false;
        }
        if (values.getOrDefault(ResourceType.CPU, 0.0) <= 0 && values.getOrDefault(ResourceType.MEMORY, 0.0) <= 0) {
            task.problem("cpu", ProblemCode.BAD_VALUE, "a job must ask for some cpu or memory");
            ok = false;
        }
        if (!ok) {
            return null;
        }
        Resources job = new PartialResources(values).orElse(0);
        return new TaskSpec(name, count, command, job, env);
    }

    /** One resource amount of a job, with units for memory. */
    private static Double amount(MapReader task, ResourceType type) {
        String raw = task.rawScalar(type.key());
        if (raw == null) {
            task.string(type.key());
            return null;
        }
        PartialResources parsed = parseOne(task, type);
        return parsed == null ? null : parsed.get(type, 0);
    }

    private static PartialResources parseOne(MapReader task, ResourceType type) {
        String raw = task.string(type.key());
        try {
            double value = io.grove.core.resource.ResourceAmounts.parse(type, raw);
            return PartialResources.of(type, value);
        } catch (IllegalArgumentException e) {
            task.problem(type.key(), ProblemCode.BAD_VALUE, e.getMessage());
            return null;
        }
    }
}
