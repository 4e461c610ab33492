package io.grove.core.operation;

import io.grove.core.resource.ResourceType;
import io.grove.core.resource.Resources;
import java.time.Duration;
import java.util.Map;

/**
 * One task of an operation: {@code jobCount} jobs running {@code command}, each with the same
 * resources. Every job takes exactly one user slot, whatever the spec says.
 *
 * @param name the task's name, unique within the operation
 * @param jobCount number of jobs, at least 1
 * @param command the shell command each job runs
 * @param jobResources resources of one job (user_slots is forced to 1)
 * @param env extra environment of the jobs
 * @param diskSpace the disk one job orders, in bytes (its sandbox, private /tmp and logs); 0 for
 *     none. Not a share of fair shares: a job starts only on a node with that much free
 * @param image the container image its jobs run in ({@code docker_image}), as a whole reference
 *     ({@link ImageReference}); {@code null} for jobs that run on the node itself
 * @param expectedDurationMillis how long a job is expected to run ({@code expected_duration}), in
 *     milliseconds, or {@code null}: only predicted starts read it, when no job like it has finished
 *     yet (milliseconds, as the journal keeps a spec)
 * @param timeLimitMillis how long a job may run ({@code time_limit}), in milliseconds, or
 *     {@code null} for its pool's default: past it the job is stopped, with "time limit" as its reason
 */
public record TaskSpec(String name, int jobCount, String command, Resources jobResources, Map<String, String> env,
        long diskSpace, String image, Long expectedDurationMillis, Long timeLimitMillis) {

    /** A task without a time limit of its own. */
    public TaskSpec(String name, int jobCount, String command, Resources jobResources, Map<String, String> env,
            long diskSpace, String image, Long expectedDurationMillis) {
        this(name, jobCount, command, jobResources, env, diskSpace, image, expectedDurationMillis, null);
    }

    /** The task's own time limit, or {@code null}. */
    public Duration timeLimit() {
        return timeLimitMillis == null ? null : Duration.ofMillis(timeLimitMillis);
    }

    /** The expected duration, or {@code null}. */
    public Duration expectedDuration() {
        return expectedDurationMillis == null ? null : Duration.ofMillis(expectedDurationMillis);
    }

    /** A task without an expected duration. */
    public TaskSpec(String name, int jobCount, String command, Resources jobResources, Map<String, String> env,
            long diskSpace, String image) {
        this(name, jobCount, command, jobResources, env, diskSpace, image, (Long) null);
    }

    /** A task whose jobs run on the node itself. */
    public TaskSpec(String name, int jobCount, String command, Resources jobResources, Map<String, String> env,
            long diskSpace) {
        this(name, jobCount, command, jobResources, env, diskSpace, null);
    }

    /** A task whose jobs order no disk. */
    public TaskSpec(String name, int jobCount, String command, Resources jobResources, Map<String, String> env) {
        this(name, jobCount, command, jobResources, env, 0);
    }

    public TaskSpec {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("task name must not be empty");
        }
        if (jobCount < 1) {
            throw new IllegalArgumentException("task " + name + ": job_count must be at least 1, got " + jobCount);
        }
        command = command == null ? "" : command;
        jobResources = (jobResources == null ? Resources.ZERO : jobResources).with(
                ResourceType.USER_SLOTS, 1);
        if (!Double.isFinite(jobResources.cpu()) || !Double.isFinite(jobResources.memory())
                || !Double.isFinite(jobResources.gpu()) || !Double.isFinite(jobResources.network())) {
            throw new IllegalArgumentException("task " + name + ": job resources must be finite, got " + jobResources);
        }
        env = Map.copyOf(env == null ? Map.of() : env);
        if (diskSpace < 0) {
            throw new IllegalArgumentException("task " + name + ": disk_space must not be negative, got " + diskSpace);
        }
        if (expectedDurationMillis != null && expectedDurationMillis <= 0) {
            throw new IllegalArgumentException("task " + name + ": expected_duration must be positive, got "
                    + expectedDurationMillis + " ms");
        }
        if (timeLimitMillis != null && timeLimitMillis <= 0) {
            throw new IllegalArgumentException("task " + name + ": time_limit must be positive, got " + timeLimitMillis
                    + " ms");
        }
        if (image != null) {
            try {
                image = ImageReference.parse(image).toString();
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("task " + name + ": docker_image: " + e.getMessage(), e);
            }
        }
    }

    /** A task of {@code jobCount} jobs of the given resources that run {@code command}. */
    public static TaskSpec of(String name, int jobCount, Resources jobResources, String command) {
        return new TaskSpec(name, jobCount, command, jobResources, Map.of());
    }
}
