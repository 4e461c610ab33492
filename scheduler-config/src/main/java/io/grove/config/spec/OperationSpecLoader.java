package io.grove.config.spec;

import io.grove.config.LoadResult;
import io.grove.config.yaml.MapReader;
import io.grove.config.yaml.Problems;
import io.grove.config.yaml.Sizes;
import io.grove.config.yaml.YamlDocument;
import io.grove.core.node.NodeFilter;
import io.grove.core.node.NodeTopology;
import io.grove.core.operation.Dependency;
import io.grove.core.operation.GangTopology;
import io.grove.core.operation.ImageReference;
import io.grove.core.operation.OperationPreemption;
import io.grove.core.operation.OperationSpec;
import io.grove.core.operation.OperationType;
import io.grove.core.operation.PreemptionMode;
import io.grove.core.operation.SpecBounds;
import io.grove.core.operation.TaskSpec;
import io.grove.core.operation.TreeOptions;
import io.grove.core.pool.PartialResources;
import io.grove.core.pool.ProblemCode;
import io.grove.core.resource.ResourceAmounts;
import io.grove.core.resource.ResourceType;
import io.grove.core.resource.Resources;
import java.time.Duration;
import java.util.EnumMap;
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
 * fair_share_starvation_tolerance: 0.8               # at most the pool's counts
 * fair_share_starvation_timeout: 60s                 # at least the pool's counts
 * non_preemptible_resource_usage_threshold: {cpu: 4} # at most the pool's counts, per resource
 * scheduling_tag_filter: "gpu &amp; !old"                 # the nodes its jobs may run on
 * is_gang: true                  # all of its jobs start together or none, and restart as one
 * topology: {required: rack}     # a gang's ranks in one rack (or preferred: as few racks as can be)
 * depends_on: [{operation: op-3, condition: completed}]  # waits for op-3 to complete (or finished: to end)
 * tasks:
 *   main: {job_count: 100, command: "./work.sh", cpu: 1, memory: 2Gi, disk_space: 10Gi, env: {MODE: fast},
 *          time_limit: 2h}           # stopped past it (else its pool's default_time_limit)
 *   in_image: {job_count: 4, docker_image: "registry.example:5000/team/tool:1.2", command: "tool --fast"}
 * </pre>
 */
public final class OperationSpecLoader {

    /** The cpu a job orders when its spec gives none, as the reference's: one core. */
    public static final double DEFAULT_JOB_CPU = 1.0;
    /** The least cpu a job may order: a quota of 1 ms per 100 ms, the kernel's smallest. */
    public static final double MIN_JOB_CPU = 0.01;

    private OperationSpecLoader() {
    }

    public static LoadResult<OperationSpec> load(String text, String source) {
        Problems problems = new Problems();
        OperationSpec spec = YamlDocument.parse(text, problems).map(top -> read(top, problems)).orElse(null);
        return new LoadResult<>(problems.isEmpty() ? spec : null, problems.list(), source);
    }

    private static OperationSpec read(MapReader top, Problems problems) {
        OperationType type = top.enumValue("type", OperationType.class);
        String title = bounded(top, "title", top.string("title"), SpecBounds.MAX_TITLE);
        String pool = bounded(top, "pool", top.string("pool"), SpecBounds.MAX_NAME);
        List<String> trees = top.strings("pool_trees");
        if (trees != null) {
            trees.forEach(tree -> bounded(top, "pool_trees", tree, SpecBounds.MAX_NAME));
        }
        Map<String, TreeOptions> options = new LinkedHashMap<>();
        for (Map.Entry<String, MapReader> entry : top.namedMaps("scheduling_options_per_pool_tree").entrySet()) {
            MapReader tree = entry.getValue();
            Double weight = weight(tree, tree.number("weight"));
            bounded(tree, "pool", tree.string("pool"), SpecBounds.MAX_NAME);
            PartialResources limits = tree.resources("resource_limits");
            options.put(entry.getKey(), new TreeOptions(tree.string("pool"), weight,
                    limits == null ? null : limits.asLimits(), tagFilter(tree)));
            tree.finish();
        }
        Double weight = weight(top, top.number("weight"));
        PartialResources limits = top.resources("resource_limits");
        Integer maxFailed = top.integer("max_failed_job_count");
        if (maxFailed != null && maxFailed < 0) {
            top.problem("max_failed_job_count", ProblemCode.BAD_VALUE, "must not be negative, got " + maxFailed);
        }
        PreemptionMode mode = top.enumValue("preemption_mode", PreemptionMode.class);
        Boolean gang = top.bool("is_gang");
        GangTopology topology = GangTopologyReader.read(top, gang != null && gang);
        OperationPreemption preemption = preemption(top);
        String tagFilter = tagFilter(top);
        List<Dependency> dependsOn = DependsOnReader.read(top);
        Map<String, TaskSpec> tasks = new LinkedHashMap<>();
        for (Map.Entry<String, MapReader> entry : top.namedMaps("tasks").entrySet()) {
            TaskSpec task = task(entry.getKey(), entry.getValue());
            if (task != null) {
                tasks.put(task.name(), task);
            }
            entry.getValue().finish();
        }
        long jobs = tasks.values().stream().mapToLong(TaskSpec::jobCount).sum();
        if (jobs > SpecBounds.MAX_JOBS) {
            top.problem("tasks", ProblemCode.BAD_VALUE, "an operation may have at most " + SpecBounds.MAX_JOBS
                    + " jobs over all its tasks, got " + jobs);
        }
        if (gang != null && gang && jobs > SpecBounds.MAX_GANG_RANKS) {
            top.problem("is_gang", ProblemCode.BAD_VALUE, "a gang may have at most " + SpecBounds.MAX_GANG_RANKS
                    + " ranks (jobs over all its tasks), got " + jobs);
        }
        if (tasks.size() > SpecBounds.MAX_TASKS) {
            top.problem("tasks", ProblemCode.BAD_VALUE, "an operation may have at most " + SpecBounds.MAX_TASKS
                    + " tasks, got " + tasks.size());
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
                gang != null && gang, preemption, tagFilter, topology, dependsOn);
    }

    /** {@code scheduling_tag_filter} (alias {@code scheduling_tag}), checked: the nodes' filter syntax. */
    private static String tagFilter(MapReader reader) {
        String filter = reader.string("scheduling_tag_filter", "scheduling_tag");
        if (filter == null) {
            return null;
        }
        try {
            NodeFilter.parse(filter);
            return filter;
        } catch (IllegalArgumentException e) {
            reader.problem("scheduling_tag_filter", ProblemCode.BAD_VALUE, e.getMessage());
            return null;
        }
    }

    private static OperationPreemption preemption(MapReader top) {
        Double tolerance = top.number("fair_share_starvation_tolerance");
        if (tolerance != null && !(tolerance >= 0 && tolerance <= 1)) {
            top.problem("fair_share_starvation_tolerance", ProblemCode.BAD_VALUE, "must be within [0, 1], got " + tolerance);
            tolerance = null;
        }
        Duration timeout = top.duration("fair_share_starvation_timeout", "fair_share_preemption_timeout");
        PartialResources threshold = top.resources("non_preemptible_resource_usage_threshold");
        return new OperationPreemption(tolerance, timeout == null ? null : timeout.toMillis(),
                threshold == null ? null : threshold.asLimits());
    }

    private static Double weight(MapReader reader, Double value) {
        if (value != null && !SpecBounds.weightInRange(value)) {
            reader.problem("weight", ProblemCode.BAD_VALUE, SpecBounds.weightProblem(value));
            return null;
        }
        return value;
    }

    /** Text of at most {@code max} characters; a longer one is a problem (and its text is not echoed). */
    private static String bounded(MapReader reader, String key, String value, int max) {
        if (value != null && value.length() > max) {
            reader.problem(key, ProblemCode.BAD_VALUE, "is " + value.length() + " characters long, above the " + max
                    + " allowed");
            return null;
        }
        return value;
    }

    private static TaskSpec task(String name, MapReader task) {
        Integer count = task.integer("job_count");
        String command = task.string("command");
        Map<ResourceType, Double> values = new EnumMap<>(ResourceType.class);
        for (ResourceType type : List.of(ResourceType.CPU, ResourceType.MEMORY, ResourceType.GPU, ResourceType.NETWORK)) {
            Double amount = amount(task, type);
            if (amount != null) {
                values.put(type, amount);
            }
        }
        Long disk = Sizes.bytes(task, "disk_space", SpecBounds.MAX_DISK_SPACE, "1 PiB a job");
        Map<String, String> env = task.stringMap("env");
        String image = task.string("docker_image");
        Duration expected = task.duration("expected_duration");
        Duration limit = task.duration("time_limit");
        boolean ok = disk == null || disk >= 0;
        if (limit != null && (limit.isZero() || limit.isNegative())) {
            task.problem("time_limit", ProblemCode.BAD_VALUE, "a job's time limit is positive, got " + task.rawScalar("time_limit"));
            ok = false;
        }
        if (expected != null && (expected.isZero() || expected.isNegative())) {
            task.problem("expected_duration", ProblemCode.BAD_VALUE, "a job's expected duration is positive, got "
                    + expected);
            ok = false;
        }
        if (image != null) {
            try {
                image = ImageReference.parse(image).toString();
            } catch (IllegalArgumentException e) {
                task.problem("docker_image", ProblemCode.BAD_VALUE, e.getMessage());
                ok = false;
            }
        }
        ok &= bounded(task, "command", command, SpecBounds.MAX_COMMAND) != null || command == null;
        if (name.length() > SpecBounds.MAX_NAME) {
            task.problem("", ProblemCode.BAD_VALUE, "a task name may be at most " + SpecBounds.MAX_NAME + " characters");
            ok = false;
        }
        if (env != null) {
            ok &= envProblems(task, env);
        }
        if (count == null || count < 1) {
            task.problem("job_count", count == null ? ProblemCode.MISSING_KEY : ProblemCode.BAD_VALUE,
                    "a task needs 'job_count' of at least 1" + (count == null ? "" : ", got " + count));
            ok = false;
        }
        if ((command == null || command.isBlank()) && image == null) {
            task.problem("command", ProblemCode.MISSING_KEY, "a task needs a 'command' (or a 'docker_image' whose own "
                    + "entry point runs)");
            ok = false;
        }
        Double cpu = values.get(ResourceType.CPU);
        if (cpu == null) {
            // as the reference: every job orders one core unless its spec says otherwise
            values.put(ResourceType.CPU, DEFAULT_JOB_CPU);
        } else if (cpu < MIN_JOB_CPU) {
            task.problem("cpu", ProblemCode.BAD_VALUE, "a job orders at least " + MIN_JOB_CPU
                    + " cpu (the smallest CPU quota a node gives), got " + cpu + "; leave 'cpu' out for 1");
            ok = false;
        }
        if (!ok) {
            return null;
        }
        Resources job = new PartialResources(values).orElse(0);
        return new TaskSpec(name, count, command == null || command.isBlank() ? "" : command, job, env,
                disk == null ? 0 : disk, image, expected == null ? null : expected.toMillis(),
                limit == null ? null : limit.toMillis());
    }

    /** Env names must be valid variable names; entries and values are bounded. */
    private static boolean envProblems(MapReader task, Map<String, String> env) {
        boolean ok = true;
        if (env.size() > SpecBounds.MAX_ENV_ENTRIES) {
            task.problem("env", ProblemCode.BAD_VALUE, "at most " + SpecBounds.MAX_ENV_ENTRIES + " variables, got "
                    + env.size());
            ok = false;
        }
        for (Map.Entry<String, String> entry : env.entrySet()) {
            if (!SpecBounds.ENV_NAME.matcher(entry.getKey()).matches()) {
                String shown = entry.getKey().length() > 64 ? entry.getKey().substring(0, 64) + "…" : entry.getKey();
                task.problem("env", ProblemCode.BAD_VALUE, "'" + shown.replaceAll("\\p{Cntrl}", "?") + "' is not a valid "
                        + "variable name (letters, digits and _, not first a digit, at most 128)");
                ok = false;
            } else if (entry.getValue() != null && (entry.getValue().length() > SpecBounds.MAX_ENV_VALUE
                    || entry.getValue().indexOf('\0') >= 0)) {
                task.problem("env", ProblemCode.BAD_VALUE, entry.getKey() + ": a value may be at most "
                        + SpecBounds.MAX_ENV_VALUE + " characters, without NUL");
                ok = false;
            }
        }
        return ok;
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
            double value = ResourceAmounts.parse(type, raw);
            return PartialResources.of(type, value);
        } catch (IllegalArgumentException e) {
            task.problem(type.key(), ProblemCode.BAD_VALUE, e.getMessage());
            return null;
        }
    }
}
