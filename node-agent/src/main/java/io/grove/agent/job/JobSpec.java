package io.grove.agent.job;

import io.grove.core.resource.Resources;
import java.util.Map;

/**
 * A job as the scheduler asked for it.
 *
 * @param index the job's index within its task ({@code GROVE_JOB_INDEX})
 * @param command run with {@code bash -c}
 * @param resources what it may use; its memory is the limit enforced
 * @param diskSpace the disk it ordered in bytes (sandbox, private /tmp, logs); 0 for none
 * @param defaultMemory its tree's memory limit for when it ordered none; 0: the node's own default
 * @param defaultDiskSpace its tree's disk limit for when it ordered none; 0: the node's own default
 * @param image the container image it runs in, or {@code null} to run on the node itself
 */
public record JobSpec(String jobId, String operationId, String task, int index, String command,
        Map<String, String> env, Resources resources, long diskSpace, long defaultMemory, long defaultDiskSpace,
        String image) {

    /** A job that runs on the node itself. */
    public JobSpec(String jobId, String operationId, String task, int index, String command,
            Map<String, String> env, Resources resources, long diskSpace, long defaultMemory, long defaultDiskSpace) {
        this(jobId, operationId, task, index, command, env, resources, diskSpace, defaultMemory, defaultDiskSpace, null);
    }

    public JobSpec {
        env = env == null ? Map.of() : Map.copyOf(env);
        diskSpace = Math.max(0, diskSpace);
        defaultMemory = Math.max(0, defaultMemory);
        defaultDiskSpace = Math.max(0, defaultDiskSpace);
    }
}
