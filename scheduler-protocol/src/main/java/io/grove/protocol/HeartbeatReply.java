package io.grove.protocol;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.grove.core.resource.Resources;
import java.util.List;
import java.util.Map;

/**
 * The scheduler's answer to a heartbeat.
 *
 * @param jobsToStart jobs to start now
 * @param jobsToAbort jobs to kill now
 * @param jobsToInterrupt jobs to stop: SIGTERM, then SIGKILL after their grace
 * @param nextHeartbeatMs when to heartbeat next
 * @param resync (version 2) {@code true}: send the full running list in the next heartbeat; never
 *     sent to version 1 nodes
 */
public record HeartbeatReply(List<JobToStart> jobsToStart, List<JobToAbort> jobsToAbort,
        List<JobToInterrupt> jobsToInterrupt, long nextHeartbeatMs,
        @JsonInclude(JsonInclude.Include.NON_NULL)
        Boolean resync) implements Message {

    public HeartbeatReply(List<JobToStart> jobsToStart, List<JobToAbort> jobsToAbort,
            List<JobToInterrupt> jobsToInterrupt, long nextHeartbeatMs) {
        this(jobsToStart, jobsToAbort, jobsToInterrupt, nextHeartbeatMs, null);
    }

    /** Whether the scheduler asks for the full running list next. */
    public boolean wantsResync() {
        return Boolean.TRUE.equals(resync);
    }

    public HeartbeatReply {
        jobsToStart = Checks.list(jobsToStart);
        jobsToAbort = Checks.list(jobsToAbort);
        jobsToInterrupt = Checks.list(jobsToInterrupt);
        Checks.nonNegative(nextHeartbeatMs, "next_heartbeat_ms");
    }

    /**
     * A job to start.
     *
     * @param jobId the new job's id
     * @param operationId its operation
     * @param task the task's name
     * @param index the job's index within the task ({@code GROVE_JOB_INDEX})
     * @param command the shell command ({@code bash -c})
     * @param env extra environment
     * @param resources what the job may use
     * @param diskSpace the disk the job ordered, in bytes (its sandbox, private /tmp and logs); {@code null} for none
     * @param defaultMemory its tree's memory limit for a job that ordered no memory; {@code null}: the node's own
     * @param defaultDiskSpace its tree's disk limit for a job that ordered no disk; {@code null}: the node's own
     * @param dockerImage the container image the job runs in ({@code registry/path:tag} or
     *     {@code ...@sha256:HEX}); {@code null} to run on the node itself
     */
    public record JobToStart(String jobId, String operationId, String task, int index, String command,
            Map<String, String> env, Resources resources,
            @JsonInclude(JsonInclude.Include.NON_NULL)
            Long diskSpace,
            @JsonInclude(JsonInclude.Include.NON_NULL)
            Long defaultMemory,
            @JsonInclude(JsonInclude.Include.NON_NULL)
            Long defaultDiskSpace,
            @JsonInclude(JsonInclude.Include.NON_NULL)
            String dockerImage) {

        /** A job that runs on the node itself. */
        public JobToStart(String jobId, String operationId, String task, int index, String command,
                Map<String, String> env, Resources resources, Long diskSpace, Long defaultMemory, Long defaultDiskSpace) {
            this(jobId, operationId, task, index, command, env, resources, diskSpace, defaultMemory, defaultDiskSpace, null);
        }

        /** A job that orders no disk. */
        public JobToStart(String jobId, String operationId, String task, int index, String command,
                Map<String, String> env, Resources resources) {
            this(jobId, operationId, task, index, command, env, resources, null, null, null);
        }

        /** A job whose tree sets no defaults. */
        public JobToStart(String jobId, String operationId, String task, int index, String command,
                Map<String, String> env, Resources resources, Long diskSpace) {
            this(jobId, operationId, task, index, command, env, resources, diskSpace, null, null);
        }

        public JobToStart {
            for (Long bytes : new Long[] {diskSpace, defaultMemory, defaultDiskSpace}) {
                if (bytes != null && bytes < 0) {
                    throw new IllegalArgumentException("'disk_space', 'default_memory' and 'default_disk_space' must not "
                            + "be negative, got " + bytes);
                }
            }
            Checks.required(jobId, "job_id");
            Checks.required(operationId, "operation_id");
            Checks.bounded(dockerImage, "docker_image", 600);
            Checks.required(resources, "resources");
            env = env == null ? Map.of() : Map.copyOf(env);
            command = command == null ? "" : command;
        }
    }

    /** A job to kill now, with the typed reason (as in the decision) and a message. */
    public record JobToAbort(String jobId, String reason, String message) {
        public JobToAbort {
            Checks.required(jobId, "job_id");
        }
    }

    /**
     * A job to interrupt.
     *
     * @param jobId the job
     * @param reason the typed reason ({@code starvation}, {@code aggressive_starvation}, {@code graceful})
     * @param preemptorOperationId the operation the resources go to, or {@code null}
     * @param preemptorJobId the job started with them, or {@code null}
     * @param graceMs how long the job may take to stop before SIGKILL
     * @param message the full reason
     */
    public record JobToInterrupt(String jobId, String reason, String preemptorOperationId, String preemptorJobId,
            long graceMs, String message) {
        public JobToInterrupt {
            Checks.required(jobId, "job_id");
            Checks.nonNegative(graceMs, "grace_ms");
        }
    }
}
