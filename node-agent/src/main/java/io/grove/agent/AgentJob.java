package io.grove.agent;

import io.grove.agent.job.JobRunner;
import io.grove.agent.job.JobSpec;
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
}
