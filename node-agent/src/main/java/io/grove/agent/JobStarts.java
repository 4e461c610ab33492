package io.grove.agent;

import io.grove.agent.broker.BrokerConfig;
import io.grove.agent.gpu.Gpu;
import io.grove.agent.gpu.GpuCheck;
import io.grove.agent.image.ImageConfig;
import io.grove.agent.image.ImagePulls;
import io.grove.agent.job.JobContainment;
import io.grove.agent.job.JobSpec;
import io.grove.agent.job.ProcTable;
import io.grove.agent.job.WorkDir;
import io.grove.agent.node.NodeLedger;
import io.grove.core.resource.ResourceType;
import io.grove.core.resource.Resources;
import io.grove.protocol.FinishedJob;
import io.grove.protocol.HeartbeatReply;
import io.grove.protocol.RunningJob;
import java.io.IOException;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a job the scheduler placed here becomes a running process, on the agent's thread: refused at
 * once (no usable id, an image the node does not take, no GPU free), or booked and then pulled
 * (image jobs), prepared (its sandbox, a broker task), checked (its GPUs, when a check is set) and
 * started with its record written. A job that cannot start ends through {@link Ends}, as one that
 * exits does.
 */
final class JobStarts {

    private static final Logger LOG = LoggerFactory.getLogger(JobStarts.class);

    /** Where jobs end: the agent's results and exits, and its disk-full path. */
    interface Ends {
        void finished(FinishedJob result, AgentJob job);

        void exited(String jobId, Integer code);

        /** The disk is full while the agent must write: jobs over their disk are stopped first. */
        void diskFull();
    }

    private final Map<String, AgentJob> jobs;
    private final Reports reports;
    private final NodeLedger ledger;
    private final JobContainment containment;
    private final ImageJobs images;
    private final NodeTasks nodeTasks;
    private final Agent.Timers timers;
    private final GpuCheck gpuCheck;
    private final NodeDisk disk;
    private final WorkDir workDir;
    private final ProcTable proc;
    private final AgentListener listener;
    private final InstantSource clock;
    private final Ends ends;

    JobStarts(Map<String, AgentJob> jobs, Reports reports, NodeLedger ledger, JobContainment containment,
            ImageJobs images, NodeTasks nodeTasks, Agent.Timers timers, GpuCheck gpuCheck, NodeDisk disk,
            WorkDir workDir, ProcTable proc, AgentListener listener, InstantSource clock, Ends ends) {
        this.jobs = jobs;
        this.reports = reports;
        this.ledger = ledger;
        this.containment = containment;
        this.images = images;
        this.nodeTasks = nodeTasks;
        this.timers = timers;
        this.gpuCheck = gpuCheck;
        this.disk = disk;
        this.workDir = workDir;
        this.proc = proc;
        this.listener = listener;
        this.clock = clock;
        this.ends = ends;
    }

    /** A job the scheduler placed here: refused at once, or on its way (image, sandbox, GPU check, process). */
    void accept(HeartbeatReply.JobToStart start) {
        if (jobs.containsKey(start.jobId()) || reports.hasResult(start.jobId())) {
            return;
        }
        JobSpec spec = new JobSpec(start.jobId(), start.operationId(), start.task(), start.index(), start.command(),
                start.env(), start.resources(), orZero(start.diskSpace()), orZero(start.defaultMemory()),
                orZero(start.defaultDiskSpace()), start.dockerImage());
        String noImage = images.refusal(spec);
        if (noImage != null) {
            ends.finished(new FinishedJob(start.jobId(), FinishedJob.Outcome.FAILED, null, "could not start: " + noImage, 0,
                    clock.millis()), null);
            return;
        }
        if (!WorkDir.isSafeId(start.jobId())) {
            ends.finished(new FinishedJob(start.jobId(), FinishedJob.Outcome.FAILED, null,
                    "could not start: the job id is not usable as a directory name", 0, clock.millis()), null);
            return;
        }
        String portTaken = GangPort.refusal(spec.env());
        if (portTaken != null) {
            // aborted, not failed: nothing of the job ran; its gang is planned again with another port
            ends.finished(new FinishedJob(start.jobId(), FinishedJob.Outcome.ABORTED, null, "could not start: "
                    + portTaken, 0, clock.millis()), null);
            return;
        }
        List<Gpu> devices;
        try {
            // specific devices, booked at once: no other job of this node can be given them
            devices = containment.gpus().assign(spec.jobId(), (int) Math.ceil(spec.resources().gpu()));
        } catch (IOException e) {
            ends.finished(new FinishedJob(start.jobId(), FinishedJob.Outcome.FAILED, null, "could not start: " + e.getMessage(),
                    0, clock.millis()), null);
            return;
        }
        AgentJob job = new AgentJob(spec);
        job.acceptedAtMs = clock.millis();
        jobs.put(spec.jobId(), job);
        reports.started(new RunningJob(spec.jobId(), spec.operationId(), Resources.ZERO,
                devices.stream().map(Gpu::uuid).toList()));
        ledger.jobStarted(spec.resources());
        if (spec.image() != null) {
            String jobId = spec.jobId();
            images.need(job, new ImagePulls.Waiter() {
                @Override
                public void ready(ImageConfig config, long pullMs) {
                    imageReady(job, config, pullMs);
                }

                @Override
                public void failed(String why) {
                    if (jobs.get(jobId) == job && job.state == AgentJob.State.PULLING) {
                        notStarted(job, FinishedJob.Outcome.FAILED, "could not start: " + why);
                    }
                }
            });
            return;
        }
        job.prepareTaskId = nodeTasks.submit(BrokerConfig.SANDBOX_PREPARE, "prepare:" + spec.jobId());
    }

    /** A job's image is in the cache: its sandbox is prepared next, as a bare job's. */
    private void imageReady(AgentJob job, ImageConfig config, long pullMs) {
        if (jobs.get(job.spec.jobId()) != job || job.state != AgentJob.State.PULLING) {
            images.unwanted(config);
            return;
        }
        job.image = config;
        job.imagePullMs = pullMs;
        job.statusChanged = true;
        listener.imageReady(job.spec.jobId(), pullMs);
        job.state = AgentJob.State.PREPARING;
        job.prepareTaskId = nodeTasks.submit(BrokerConfig.SANDBOX_PREPARE, "prepare:" + job.spec.jobId());
    }

    /** A job that never started ends: its devices and its booking go back. */
    void notStarted(AgentJob job, FinishedJob.Outcome outcome, String message) {
        String jobId = job.spec.jobId();
        containment.gpus().release(jobId);
        jobs.remove(jobId);
        ledger.jobEnded(job.spec.resources());
        images.released(job);
        ends.finished(new FinishedJob(jobId, outcome, null, message, 0, clock.millis()), null);
    }

    /**
     * The broker allocated the preparation: the job's GPUs are checked first when a check is set
     * (off this thread); a GPU that fails is taken out of service and the job fails.
     */
    /** The broker allocated a job's preparation: it starts, unless it was stopped meanwhile. */
    void prepared(String jobId) {
        AgentJob job = jobs.get(jobId);
        if (job != null && job.state == AgentJob.State.PREPARING) {
            launch(job);
        }
    }

    private void launch(AgentJob job) {
        List<Gpu> devices = containment.gpus().of(job.spec.jobId());
        if (!gpuCheck.enabled() || devices.isEmpty()) {
            start(job);
            return;
        }
        job.state = AgentJob.State.CHECKING;
        String jobId = job.spec.jobId();
        gpuCheck.check(devices).whenComplete((failure, error) -> timers.after(0, () -> {
            if (jobs.get(jobId) != job || job.state != AgentJob.State.CHECKING) {
                return;
            }
            String why = error != null ? "check failed: " + error : failure;
            if (why == null) {
                start(job);
                return;
            }
            devices.forEach(gpu -> containment.gpus().takeOut(gpu, why));
            ledger.gpusInService(containment.gpus().inService());
            containment.gpus().release(jobId);
            jobs.remove(jobId);
            ledger.jobEnded(job.spec.resources());
            // aborted, not failed: the job did nothing wrong, and runs again elsewhere
            ends.finished(new FinishedJob(jobId, FinishedJob.Outcome.ABORTED, null, "could not start: the GPU check failed on "
                    + devices + ": " + why + "; those GPUs are out of service", 0, clock.millis()), null);
        }));
    }

    /** Makes the sandbox and starts the process. */
    private void start(AgentJob job) {
        JobSpec spec = job.spec;
        long now = clock.millis();
        try {
            job.handle = job.image == null ? containment.start(spec) : containment.start(spec, images.imageOf(job));
        } catch (IOException | RuntimeException e) {
            jobs.remove(spec.jobId());
            ledger.jobEnded(spec.resources());
            images.released(job);
            ends.finished(new FinishedJob(spec.jobId(), FinishedJob.Outcome.FAILED, null, "could not start: " + e.getMessage(),
                    now, clock.millis()), null);
            return;
        }
        job.state = AgentJob.State.RUNNING;
        job.statusChanged = job.spec.image() != null;
        job.startedAtMs = now;
        job.usage = spec.resources().with(ResourceType.MEMORY, 0);
        try {
            WorkDir.JobRecord record = new WorkDir.JobRecord(spec.jobId(), spec.operationId(), job.handle.pid(),
                    proc.startTime(job.handle.pid()).orElse(-1), now,
                    containment.gpus().of(spec.jobId()).stream().map(Gpu::index).toList());
            disk.reserve().write(ends::diskFull, () -> workDir.writeRecord(record));
        } catch (IOException e) {
            LOG.warn("job {}: cannot write its record ({}); it would survive an agent crash", spec.jobId(), e.getMessage());
        }
        listener.jobStarted(spec.jobId(), job.handle.pid(), clock.millis() - job.acceptedAtMs);
        String jobId = spec.jobId();
        job.handle.exit().whenComplete((code, error) -> timers.after(0, () -> ends.exited(jobId, code)));
    }


    private static long orZero(Long bytes) {
        return bytes == null ? 0 : bytes;
    }
}
