package io.grove.agent;

import io.grove.agent.image.ImageConfig;
import io.grove.agent.job.CpuUsage;
import io.grove.agent.job.JobRunner;
import io.grove.agent.job.JobSpec;
import io.grove.agent.job.ProcTable;
import io.grove.core.resource.Resources;
import io.grove.protocol.FinishedJob;
import io.grove.protocol.JobCpu;
import java.util.Optional;

/** A job on this node, from the scheduler's start order until its process has exited. */
final class AgentJob {

    enum State {
        /** Waiting for its container image: its tag resolved, its pull (a broker task) done. */
        PULLING,
        /** Waiting for the broker to allocate the preparation of its sandbox. */
        PREPARING,
        /** Its GPUs are being checked before it starts. */
        CHECKING,
        RUNNING,
        /** Signalled to stop; waiting for the process tree to exit. */
        STOPPING
    }

    final JobSpec spec;
    State state = State.PREPARING;
    long prepareTaskId;
    JobRunner.Handle handle;
    long acceptedAtMs;
    long startedAtMs;
    /** How it ends if it was stopped on purpose; {@code null} while nobody stopped it. */
    FinishedJob.Outcome stopOutcome;
    String stopMessage;
    Resources usage = Resources.ZERO;
    long lastCpuTicks = -1;
    long lastSampleMs;
    /** Bytes its sandbox and logs held when last measured. */
    long diskUsed;
    /** Its CPU as last counted, or {@code null}; when it last went to the scheduler. */
    JobCpu cpu;
    long cpuReportedAtMs = Long.MIN_VALUE;

    /** Its container image once ready (an image job), or {@code null}. */
    ImageConfig image;
    /** How long its image took to pull and unpack (0: cached), or -1 before it was ready. */
    long imagePullMs = -1;
    /** What it waited for as last told to the scheduler, and whether its status changed since. */
    String toldPreparing;
    boolean statusChanged;
    /** The modification time of its checkpoint file as last told to the scheduler. */
    long toldCheckpointMs = Long.MIN_VALUE;

    AgentJob(JobSpec spec) {
        this.spec = spec;
    }

    /**
     * Its CPU as counted now: its cgroup's accounting when there is one, else its processes' times
     * (throttling unknown then).
     */
    void countCpu(Optional<CpuUsage> cgroup, ProcTable.GroupUsage group) {
        if (cgroup.isPresent()) {
            CpuUsage usage = cgroup.get();
            cpu = new JobCpu(spec.jobId(), usage.usageNanos() / 1e9, usage.throttledNanos() / 1e9, usage.throttledShare());
        } else if (group != null) {
            cpu = new JobCpu(spec.jobId(), group.cpuTicks() / 100.0, -1, -1);
        }
    }

    /** Takes a sample of the job's process tree: its CPU since the previous sample, its resident memory. */
    void measure(ProcTable.GroupUsage group, long nowMs) {
        double cpu = spec.resources().cpu();
        if (lastCpuTicks >= 0 && nowMs > lastSampleMs) {
            cpu = (group.cpuTicks() - lastCpuTicks) * 10.0 / (nowMs - lastSampleMs);
        }
        lastCpuTicks = group.cpuTicks();
        lastSampleMs = nowMs;
        usage = new Resources(1, Math.max(0, Math.round(cpu * 100) / 100.0), spec.resources().gpu(),
                group.residentBytes(), spec.resources().network());
    }
}
