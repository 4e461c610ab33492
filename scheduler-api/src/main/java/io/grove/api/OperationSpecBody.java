package io.grove.api;

import com.fasterxml.jackson.annotation.JsonAlias;
import java.util.List;
import java.util.Map;

/**
 * {@code POST /api/v1/operations}: an operation spec, in JSON or YAML. The daemon reads it with
 * every problem and its line ({@code docs/api.md}); this record is what clients build and what the
 * spec may contain — a key the daemon accepts is a component here, and the reverse.
 *
 * @param pool the pool; none: the user's ephemeral pool
 * @param poolTrees the trees; none: the default tree
 * @param fairShareStarvationTimeout a duration such as {@code 60s}
 * @param type {@code vanilla} or {@code map}
 * @param isGang all of its jobs start together or none, and restart as one
 * @param topology a gang's place: {@code {"required": "rack"}} (every rank in one rack) or
 *     {@code {"preferred": "rack"}} (as few racks as can be)
 * @param dependsOn the operations it waits for, each to {@code completed} (the default) or
 *     {@code finished}, as Slurm's {@code --dependency=afterok} and {@code afterany}
 */
public record OperationSpecBody(
        String type,
        String title,
        String pool,
        List<String> poolTrees,
        Map<String, TreeOptions> schedulingOptionsPerPoolTree,
        Double weight,
        Quantities resourceLimits,
        Integer maxFailedJobCount,
        String preemptionMode,
        Boolean isGang,
        Double fairShareStarvationTolerance,
        @JsonAlias("fair_share_preemption_timeout") String fairShareStarvationTimeout,
        Quantities nonPreemptibleResourceUsageThreshold,
        @JsonAlias("scheduling_tag") String schedulingTagFilter,
        Map<String, String> topology,
        Map<String, Task> tasks,
        List<DependencyBody> dependsOn) {

    /** A spec that waits for no other operation. */
    public OperationSpecBody(String type, String title, String pool, List<String> poolTrees,
            Map<String, TreeOptions> schedulingOptionsPerPoolTree, Double weight, Quantities resourceLimits,
            Integer maxFailedJobCount, String preemptionMode, Boolean isGang, Double fairShareStarvationTolerance,
            String fairShareStarvationTimeout, Quantities nonPreemptibleResourceUsageThreshold, String schedulingTagFilter,
            Map<String, String> topology, Map<String, Task> tasks) {
        this(type, title, pool, poolTrees, schedulingOptionsPerPoolTree, weight, resourceLimits, maxFailedJobCount,
                preemptionMode, isGang, fairShareStarvationTolerance, fairShareStarvationTimeout,
                nonPreemptibleResourceUsageThreshold, schedulingTagFilter, topology, tasks, null);
    }

    /**
     * An operation waited for.
     *
     * @param operation its id
     * @param condition {@code completed} (the default: it must complete) or {@code finished} (however it ends)
     */
    public record DependencyBody(String operation, String condition) {
    }

    /** Settings for one tree. */
    public record TreeOptions(String pool, Double weight, Quantities resourceLimits,
            @JsonAlias("scheduling_tag") String schedulingTagFilter) {
    }

    /**
     * A task: its jobs, their command, what each asks for and its environment.
     *
     * @param cpu cores per job; 1 when absent
     * @param diskSpace disk per job (its sandbox, private /tmp and logs), e.g. {@code 10Gi}: a job
     *     starts only on a node with that much free, and is stopped when it writes more
     * @param dockerImage the container image its jobs run in, e.g. {@code registry.example:5000/team/tool:1.2}
     *     or {@code name@sha256:HEX}; absent: they run on the node itself. With an image, a task
     *     without a command runs the image's own entry point
     * @param timeLimit how long a job may run, e.g. {@code 2h}: past it the job is stopped (its pool's
     *     {@code default_time_limit} when absent, at most its {@code max_time_limit})
     */
    public record Task(Integer jobCount, String command, Quantity cpu, Quantity memory, Quantity gpu, Quantity network,
            Map<String, String> env, Quantity diskSpace, String dockerImage, String expectedDuration, String timeLimit) {

        /** A task without a time limit of its own. */
        public Task(Integer jobCount, String command, Quantity cpu, Quantity memory, Quantity gpu, Quantity network,
                Map<String, String> env, Quantity diskSpace, String dockerImage, String expectedDuration) {
            this(jobCount, command, cpu, memory, gpu, network, env, diskSpace, dockerImage, expectedDuration, null);
        }

        /** A task without an expected duration. */
        public Task(Integer jobCount, String command, Quantity cpu, Quantity memory, Quantity gpu, Quantity network,
                Map<String, String> env, Quantity diskSpace, String dockerImage) {
            this(jobCount, command, cpu, memory, gpu, network, env, diskSpace, dockerImage, null);
        }

        /** A task whose jobs run on the node itself. */
        public Task(Integer jobCount, String command, Quantity cpu, Quantity memory, Quantity gpu, Quantity network,
                Map<String, String> env, Quantity diskSpace) {
            this(jobCount, command, cpu, memory, gpu, network, env, diskSpace, null);
        }

        /** A task whose jobs order no disk. */
        public Task(Integer jobCount, String command, Quantity cpu, Quantity memory, Quantity gpu, Quantity network,
                Map<String, String> env) {
            this(jobCount, command, cpu, memory, gpu, network, env, null);
        }
    }

    /** A spec of one task {@code main} with everything else left to the daemon's defaults. */
    public static OperationSpecBody of(String title, String pool, Task main) {
        return new OperationSpecBody(null, title, pool, null, null, null, null, null, null, null, null, null, null, null,
                null, Map.of("main", main));
    }
}
