package io.grove.agent.job;

import io.grove.agent.image.NodeImages;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Everything needed to start one job's process.
 *
 * @param sandbox its working directory
 * @param script where its launch script is written (readable by its user only)
 * @param env its whole environment ({@link JobEnvironment})
 * @param user the unprivileged user it runs as, or {@code null} to run as the agent's user
 * @param cgroupProcs the {@code cgroup.procs} files of the job's cgroups, which the process joins
 *     before anything of the job runs; empty without cgroups
 * @param namespace the job's private directories, or {@code null} to share the node's (not root)
 * @param container the container an image job runs in, or {@code null} for a bare job
 * @param maxFileBytes the largest file it may write, its stdout and stderr included: its disk limit,
 *     held by the kernel ({@code RLIMIT_FSIZE}) however fast it writes; 0 for none
 */
public record JobLaunch(JobSpec job, Path sandbox, Path script, Path stdout, Path stderr, Map<String, String> env,
        JobUsers.User user, List<Path> cgroupProcs, JobNamespace namespace, Container container, long maxFileBytes) {

    /** A bare job. */
    public JobLaunch(JobSpec job, Path sandbox, Path script, Path stdout, Path stderr, Map<String, String> env,
            JobUsers.User user, List<Path> cgroupProcs, JobNamespace namespace, long maxFileBytes) {
        this(job, sandbox, script, stdout, stderr, env, user, cgroupProcs, namespace, null, maxFileBytes);
    }

    /**
     * The container of an image job: the runtime runs it from its bundle (whose {@code config.json}
     * holds its user, environment and mounts) under the id given.
     */
    public record Container(String id, Path bundle, NodeImages images) {
    }

    public JobLaunch {
        env = Map.copyOf(env);
        cgroupProcs = cgroupProcs == null ? List.of() : List.copyOf(cgroupProcs);
    }
}
