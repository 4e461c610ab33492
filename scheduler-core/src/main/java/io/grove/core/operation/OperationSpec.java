package io.grove.core.operation;

import io.grove.core.resource.Resources;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a user submits (see docs/api.md#post-apiv1operations and design "Operations and jobs").
 *
 * @param type vanilla, or another kind (matters for lightweight operations only)
 * @param title a free-form title, may be empty
 * @param tasks the tasks by name, in the spec's order
 * @param pool the pool in every tree without its own; {@code null} for the user's ephemeral pool
 * @param poolTrees the trees to run in; empty means the default tree
 * @param treeOptions per-tree pool, weight and limits
 * @param weight weight among siblings, positive
 * @param resourceLimits the operation's limits ({@link Resources#UNLIMITED} when none)
 * @param maxFailedJobCount the operation fails when this many jobs have failed
 * @param preemptionMode normal or graceful
 * @param gang all or nothing
 * @param preemption the operation's own starvation and preemption settings
 * @param schedulingTagFilter the nodes its jobs may run on, in every tree without its own; empty: any
 * @param topology where a gang's ranks must or should sit ({@link GangTopology#NONE} for none; only a gang has one)
 * @param dependsOn the operations it waits for, each to end as its condition says (empty: none)
 */
public record OperationSpec(
        OperationType type,
        String title,
        Map<String, TaskSpec> tasks,
        String pool,
        List<String> poolTrees,
        Map<String, TreeOptions> treeOptions,
        double weight,
        Resources resourceLimits,
        int maxFailedJobCount,
        PreemptionMode preemptionMode,
        boolean gang,
        OperationPreemption preemption,
        String schedulingTagFilter,
        GangTopology topology,
        List<Dependency> dependsOn) {

    /** A spec without dependencies (as before they existed). */
    public OperationSpec(OperationType type, String title, Map<String, TaskSpec> tasks, String pool, List<String> poolTrees,
            Map<String, TreeOptions> treeOptions, double weight, Resources resourceLimits, int maxFailedJobCount,
            PreemptionMode preemptionMode, boolean gang, OperationPreemption preemption, String schedulingTagFilter,
            GangTopology topology) {
        this(type, title, tasks, pool, poolTrees, treeOptions, weight, resourceLimits, maxFailedJobCount, preemptionMode,
                gang, preemption, schedulingTagFilter, topology, List.of());
    }

    /** The reference's default of {@code max_failed_job_count}. */
    public static final int DEFAULT_MAX_FAILED_JOB_COUNT = 10;

    public OperationSpec {
        type = type == null ? OperationType.VANILLA : type;
        title = title == null ? "" : title;
        if (tasks == null || tasks.isEmpty()) {
            throw new IllegalArgumentException("an operation needs at least one task");
        }
        tasks = Collections.unmodifiableMap(new LinkedHashMap<>(tasks));
        poolTrees = List.copyOf(poolTrees == null ? List.of() : poolTrees);
        treeOptions = Map.copyOf(treeOptions == null ? Map.of() : treeOptions);
        if (!SpecBounds.weightInRange(weight)) {
            throw new IllegalArgumentException(SpecBounds.weightProblem(weight));
        }
        for (TreeOptions options : treeOptions.values()) {
            if (options.weight() != null && !SpecBounds.weightInRange(options.weight())) {
                throw new IllegalArgumentException(SpecBounds.weightProblem(options.weight()));
            }
        }
        long jobs = 0;
        for (TaskSpec task : tasks.values()) {
            jobs += task.jobCount();
        }
        if (jobs > SpecBounds.MAX_JOBS) {
            throw new IllegalArgumentException("an operation may have at most " + SpecBounds.MAX_JOBS
                    + " jobs over all its tasks, got " + jobs);
        }
        if (gang && jobs > SpecBounds.MAX_GANG_RANKS) {
            throw new IllegalArgumentException("a gang may have at most " + SpecBounds.MAX_GANG_RANKS
                    + " ranks (jobs over all its tasks), got " + jobs);
        }
        resourceLimits = resourceLimits == null ? Resources.UNLIMITED : resourceLimits;
        if (maxFailedJobCount < 0) {
            throw new IllegalArgumentException("max_failed_job_count must not be negative, got " + maxFailedJobCount);
        }
        preemptionMode = preemptionMode == null ? PreemptionMode.NORMAL : preemptionMode;
        preemption = preemption == null ? OperationPreemption.NONE : preemption;
        schedulingTagFilter = schedulingTagFilter == null ? "" : schedulingTagFilter.strip();
        topology = topology == null ? GangTopology.NONE : topology;
        dependsOn = List.copyOf(dependsOn == null ? List.of() : dependsOn);
        if (dependsOn.size() > Dependency.MAX) {
            throw new IllegalArgumentException("an operation may wait for at most " + Dependency.MAX + " operations, got "
                    + dependsOn.size());
        }
        if (topology.constrained() && !gang) {
            throw new IllegalArgumentException("topology applies to gangs: set is_gang: true or drop topology");
        }
        for (Map.Entry<String, TaskSpec> entry : tasks.entrySet()) {
            if (!entry.getKey().equals(entry.getValue().name())) {
                throw new IllegalArgumentException("task key " + entry.getKey() + " differs from its name "
                        + entry.getValue().name());
            }
        }
    }

    /** Options for one tree, with the spec's top-level values where the tree sets none. */
    public TreeOptions optionsFor(String tree) {
        TreeOptions own = treeOptions.getOrDefault(tree, TreeOptions.NONE);
        return new TreeOptions(own.pool() != null ? own.pool() : pool,
                own.weight() != null ? own.weight() : weight,
                own.resourceLimits() != null ? own.resourceLimits() : resourceLimits,
                own.schedulingTagFilter() != null ? own.schedulingTagFilter() : schedulingTagFilter);
    }

    /**
     * The same spec with other runtime parameters; {@code null} keeps a value.
     *
     * @param newWeight the weight
     * @param newLimits the resource limits
     * @param tree the tree whose pool changes, or {@code null}
     * @param newPool the new pool in that tree
     */
    public OperationSpec withUpdate(Double newWeight, Resources newLimits, String tree, String newPool) {
        Map<String, TreeOptions> options = new LinkedHashMap<>(treeOptions);
        if (tree != null && newPool != null) {
            TreeOptions own = options.getOrDefault(tree, TreeOptions.NONE);
            options.put(tree, new TreeOptions(newPool, own.weight(), own.resourceLimits(), own.schedulingTagFilter()));
        }
        return new OperationSpec(type, title, tasks, pool, poolTrees, options, newWeight == null ? weight : newWeight,
                newLimits == null ? resourceLimits : newLimits, maxFailedJobCount, preemptionMode, gang, preemption,
                schedulingTagFilter, topology, dependsOn);
    }

    /** Total number of jobs over all tasks. */
    public int jobCount() {
        int count = 0;
        for (TaskSpec task : tasks.values()) {
            count += task.jobCount();
        }
        return count;
    }

    /**
     * A job's number across all tasks: its index after the jobs of the tasks before its own (a
     * gang's rank); -1 for a task the spec does not have.
     */
    public int jobNumber(String task, int index) {
        int offset = 0;
        for (TaskSpec each : tasks.values()) {
            if (each.name().equals(task)) {
                return offset + index;
            }
            offset += each.jobCount();
        }
        return -1;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Fluent construction, mostly for tests and workloads. */
    public static final class Builder {
        private OperationType type = OperationType.VANILLA;
        private String title = "";
        private final Map<String, TaskSpec> tasks = new LinkedHashMap<>();
        private String pool;
        private final List<String> poolTrees = new ArrayList<>();
        private final Map<String, TreeOptions> treeOptions = new LinkedHashMap<>();
        private double weight = 1.0;
        private Resources limits = Resources.UNLIMITED;
        private int maxFailedJobCount = DEFAULT_MAX_FAILED_JOB_COUNT;
        private PreemptionMode preemptionMode = PreemptionMode.NORMAL;
        private boolean gang;
        private OperationPreemption preemption = OperationPreemption.NONE;
        private String schedulingTagFilter = "";
        private GangTopology topology = GangTopology.NONE;
        private final List<Dependency> dependsOn = new ArrayList<>();

        public Builder type(OperationType value) {
            this.type = value;
            return this;
        }

        public Builder title(String value) {
            this.title = value;
            return this;
        }

        public Builder task(TaskSpec task) {
            tasks.put(task.name(), task);
            return this;
        }

        /** One task named {@code main} of {@code count} jobs of {@code resources}. */
        public Builder jobs(int count, Resources resources) {
            return task(TaskSpec.of("main", count, resources, "true"));
        }

        public Builder pool(String value) {
            this.pool = value;
            return this;
        }

        public Builder tree(String tree) {
            poolTrees.add(tree);
            return this;
        }

        public Builder tree(String tree, TreeOptions options) {
            poolTrees.add(tree);
            treeOptions.put(tree, options);
            return this;
        }

        public Builder weight(double value) {
            this.weight = value;
            return this;
        }

        public Builder limits(Resources value) {
            this.limits = value;
            return this;
        }

        public Builder maxFailedJobCount(int value) {
            this.maxFailedJobCount = value;
            return this;
        }

        public Builder graceful() {
            this.preemptionMode = PreemptionMode.GRACEFUL;
            return this;
        }

        public Builder gang() {
            this.gang = true;
            return this;
        }

        /** A gang held to a topology level ({@code required}) or preferring one. */
        public Builder topology(String level, boolean required) {
            this.gang = true;
            this.topology = new GangTopology(level, required);
            return this;
        }

        public Builder schedulingTagFilter(String value) {
            this.schedulingTagFilter = value;
            return this;
        }

        public Builder preemption(OperationPreemption value) {
            this.preemption = value;
            return this;
        }

        /** Waits for {@code operation} to end as {@code condition} says. */
        public Builder after(String operation, Dependency.Condition condition) {
            this.dependsOn.add(new Dependency(operation, condition));
            return this;
        }

        public OperationSpec build() {
            return new OperationSpec(type, title, tasks, pool, poolTrees, treeOptions, weight, limits,
                    maxFailedJobCount, preemptionMode, gang, preemption, schedulingTagFilter, topology, dependsOn);
        }
    }
}
