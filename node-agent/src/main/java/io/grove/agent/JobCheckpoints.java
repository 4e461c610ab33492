package io.grove.agent;

import io.grove.agent.job.JobEnvironment;
import io.grove.agent.job.WorkDir;
import io.grove.protocol.JobStatus;
import io.grove.protocol.NodeHeartbeat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The checkpoints jobs report by touching {@code $GROVE_CHECKPOINT_FILE} in their sandbox
 * (docs/agent.md#checkpoints): read on each heartbeat, and told to the scheduler when one changed,
 * as how long ago it was. The file is the job's: its time is read with {@code lstat}, never through
 * a link it planted, nothing else of it is read, and the time is held to the job's run (a file dated
 * in the future or before the start says no more than "now" or "at the start").
 */
final class JobCheckpoints {

    private final WorkDir workDir;
    /** The last checkpoints of jobs that exited since the previous heartbeat, told with their ends. */
    private final List<JobStatus> ended = new ArrayList<>();

    JobCheckpoints(WorkDir workDir) {
        this.workDir = workDir;
    }

    /**
     * A heartbeat was lost or a new scheduler welcomed the node: the checkpoints are told again at
     * the next heartbeat (a scheduler that restarted knows none).
     */
    void tellAgain(Collection<AgentJob> jobs) {
        for (AgentJob job : jobs) {
            job.toldCheckpointMs = Long.MIN_VALUE;
        }
    }

    /** A job's process exited: a checkpoint it made while it stopped goes with its end. */
    void exited(AgentJob job, long nowMs) {
        Long age = newCheckpoint(job, nowMs);
        if (age != null && ended.size() < NodeHeartbeat.MAX_JOB_STATUS) {
            ended.add(ImageJobs.status(job, null, age));
        }
    }

    /**
     * The statuses for a heartbeat: {@code statuses} (image jobs' changes), each job whose checkpoint
     * changed since the last heartbeat given its age, as of {@code nowMs}; at most
     * {@link NodeHeartbeat#MAX_JOB_STATUS}.
     */
    List<JobStatus> withCheckpoints(List<JobStatus> statuses, Collection<AgentJob> jobs, long nowMs) {
        Map<String, JobStatus> out = null;
        if (!ended.isEmpty()) {
            out = new LinkedHashMap<>();
            for (JobStatus status : ended) {
                out.put(status.jobId(), status);
            }
            for (JobStatus status : statuses) {
                out.merge(status.jobId(), status, (last, said) -> new JobStatus(said.jobId(), said.preparing(),
                        said.imageDigest(), said.imagePullMs(), last.checkpointAgeMs()));
            }
            ended.clear();
        }
        for (AgentJob job : jobs) {
            Long age = newCheckpoint(job, nowMs);
            if (age == null) {
                continue;
            }
            if (out == null) {
                out = new LinkedHashMap<>();
                for (JobStatus status : statuses) {
                    out.put(status.jobId(), status);
                }
            }
            JobStatus said = out.get(job.spec.jobId());
            if (said == null && out.size() >= NodeHeartbeat.MAX_JOB_STATUS) {
                job.toldCheckpointMs = Long.MIN_VALUE;   // told at a later heartbeat
                continue;
            }
            out.put(job.spec.jobId(), said != null
                    ? new JobStatus(said.jobId(), said.preparing(), said.imageDigest(), said.imagePullMs(), age)
                    : ImageJobs.status(job, null, age));
        }
        return out == null ? statuses : new ArrayList<>(out.values());
    }

    /**
     * How long before {@code nowMs} the job's checkpoint file was last touched, when that changed
     * since it was last told; {@code null} if it did not, or the job has not started or has no file.
     */
    Long newCheckpoint(AgentJob job, long nowMs) {
        if (job.startedAtMs <= 0) {
            return null;
        }
        long modified = modifiedMs(workDir.sandbox(job.spec.jobId()).resolve(JobEnvironment.CHECKPOINT_FILE));
        if (modified < 0 || modified == job.toldCheckpointMs) {
            return null;
        }
        job.toldCheckpointMs = modified;
        long at = Math.max(job.startedAtMs, Math.min(nowMs, modified));
        return nowMs - at;
    }

    /** The file's own modification time (a link's, not its target's), or -1 when there is none. */
    static long modifiedMs(Path file) {
        try {
            return Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).lastModifiedTime().toMillis();
        } catch (IOException | SecurityException e) {
            return -1;
        }
    }
}
