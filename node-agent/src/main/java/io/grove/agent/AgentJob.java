package io.grove.agent;

import io.grove.agent.job.JobRunner;
import io.grove.agent.job.JobSpec;
import io.grove.agent.job.ProcTable;
import io.grove.core.resource.Resources;
import io.grove.protocol.FinishedJob;

/** A job on this node, from the scheduler's start order until its process has exited. */
final class AgentJob {

    enum State {
        /** Waiting for the broker to allocate the preparation of its sandbox. */
        PREPARING,
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

    AgentJob(JobSpec spec) {
        this.spec = spec;
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
