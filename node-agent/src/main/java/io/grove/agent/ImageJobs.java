package io.grove.agent;

import io.grove.agent.image.ImageConfig;
import io.grove.agent.image.ImagePulls;
import io.grove.agent.image.NodeImages;
import io.grove.agent.job.JobContainment;
import io.grove.agent.job.JobSpec;
import io.grove.core.operation.ImageReference;
import io.grove.protocol.JobStatus;
import io.grove.protocol.NodeHeartbeat;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.function.LongConsumer;

/**
 * The agent's side of its image jobs, on its thread: whether it takes one, the pull it waits for,
 * the image it holds while it prepares and runs, and the statuses that tell the scheduler how each
 * is getting on.
 */
final class ImageJobs {

    private final NodeImages images;
    /** The images jobs wait for; {@code null} on a node that runs no image jobs. */
    private final ImagePulls pulls;
    /** Statuses of image jobs that ended before a heartbeat carried them. */
    private final List<JobStatus> ended = new ArrayList<>();

    /**
     * @param finishTask ends a broker task of the agent's own (a pull that is done)
     */
    ImageJobs(NodeImages images, Agent.Timers timers, InstantSource clock, NodeTasks tasks, LongConsumer finishTask) {
        this.images = images;
        this.pulls = !images.available() ? null : new ImagePulls(images.store(), images.workers(),
                task -> timers.after(0, task), clock::millis, images.settings().failureMemory().toMillis(),
                new ImagePulls.Broker() {
                    @Override
                    public long submitPull(String digest) {
                        return tasks.submitPull(digest);
                    }

                    @Override
                    public void finished(long taskId) {
                        finishTask.accept(taskId);
                    }
                }, images.meters());
        if (pulls != null) {
            tasks.pullsTo(pulls::allocated);
        }
    }

    NodeImages images() {
        return images;
    }

    /** Why this node cannot take a job with this spec's image, or {@code null} (a bare job, or one it can run). */
    String refusal(JobSpec spec) {
        if (spec.image() == null) {
            return null;
        }
        try {
            ImageReference.parse(spec.image());
        } catch (IllegalArgumentException e) {
            return "docker_image: " + e.getMessage();
        }
        return pulls == null ? "this node runs no jobs in container images (" + images.why() + ")" : null;
    }

    /** A job waits for its image (its spec has one this node can run): {@code waiter} is told later. */
    void need(AgentJob job, ImagePulls.Waiter waiter) {
        job.state = AgentJob.State.PULLING;
        job.statusChanged = true;
        pulls.need(job.spec.jobId(), ImageReference.parse(job.spec.image()), waiter);
    }

    /** A job stopped while it waited for its image. */
    void cancel(AgentJob job) {
        pulls.cancel(job.spec.jobId());
    }

    /** The image came for a job that no longer waits for it. */
    void unwanted(ImageConfig image) {
        pulls.release(image.digest());
    }

    /** A job that held its image ended (or never started): the image may leave the cache. */
    void released(AgentJob job) {
        if (job.image != null) {
            pulls.release(job.image.digest());
        }
    }

    /** A job's process exited: what it ran in goes with its end when no heartbeat carried it while it ran. */
    void exited(AgentJob job) {
        released(job);
        if (job.image != null && job.statusChanged) {
            ended.add(status(job, null, null));
        }
    }

    /** The image a job starts in, as the cache holds it. */
    JobContainment.Image imageOf(AgentJob job) {
        return new JobContainment.Image(job.image, images.store().rootfs(job.image.digest()), images);
    }

    /** How image jobs are getting on, for those whose status changed since the previous heartbeat. */
    List<JobStatus> statuses(Collection<AgentJob> jobs) {
        if (pulls == null) {
            return List.of();
        }
        List<JobStatus> changed = new ArrayList<>(ended);
        ended.clear();
        for (AgentJob job : jobs) {
            if (job.spec.image() == null) {
                continue;
            }
            String preparing = job.state == AgentJob.State.PULLING ? pulls.preparing(job.spec.jobId())
                    : job.state == AgentJob.State.PREPARING || job.state == AgentJob.State.CHECKING
                    ? "waiting for the node's broker to prepare its sandbox" : null;
            if (job.statusChanged || !Objects.equals(preparing, job.toldPreparing)) {
                job.statusChanged = false;
                job.toldPreparing = preparing;
                changed.add(status(job, preparing, null));
                if (changed.size() == NodeHeartbeat.MAX_JOB_STATUS) {
                    break;
                }
            }
        }
        return changed;
    }

    /** A job's status as told: what it waits for, its image, and the age of a new checkpoint ({@code null}: none). */
    static JobStatus status(AgentJob job, String preparing, Long checkpointAgeMs) {
        return new JobStatus(job.spec.jobId(), preparing == null ? null
                : preparing.length() > JobStatus.MAX_PREPARING ? preparing.substring(0, JobStatus.MAX_PREPARING) : preparing,
                job.image == null ? null : job.image.digest(), job.imagePullMs < 0 ? null : job.imagePullMs,
                checkpointAgeMs);
    }
}
