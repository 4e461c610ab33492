package io.grove.agent;

import io.grove.protocol.FinishedJob;

/**
 * How a job's process tree ended, in its result's words: stopped on purpose, killed by the kernel
 * for its memory, exited 0, or failed; a job that reached its process limit says so.
 *
 * @param exitCode the exit code, or {@code null} when the job was stopped on purpose
 * @param error what went wrong, or {@code null}
 */
record JobEnding(FinishedJob.Outcome outcome, Integer exitCode, String error) {

    /** The signal of a write past the file size limit. */
    static final int SIGXFSZ = 25;

    /**
     * @param code the main process's exit code, or {@code null} when it could not be waited for
     * @param outOfMemory whether the kernel killed a process of the job for its memory
     * @param pidsLimited whether the job's cgroup refused it a process
     * @param memoryLimit the memory it was held to, in bytes
     * @param pidsLimit the processes it was held to
     * @param diskLimit the disk it was held to, in bytes (no file it wrote could grow past it)
     * @param outputReached whether its stdout or stderr reached that limit
     * @param stderrTail the end of its stderr, appended to a failure ("" for none)
     */
    static JobEnding of(AgentJob job, Integer code, boolean outOfMemory, boolean pidsLimited, long memoryLimit,
            long pidsLimit, long diskLimit, boolean outputReached, String stderrTail) {
        FinishedJob.Outcome outcome;
        String error;
        if (job.stopOutcome != null) {
            outcome = job.stopOutcome;
            error = job.stopMessage;
        } else if (outOfMemory) {
            outcome = FinishedJob.Outcome.FAILED;
            error = "memory limit exceeded: the kernel killed a process of the job (its cgroup reached its memory of "
                    + NodeMeters.mib(memoryLimit) + ")";
        } else if (code != null && code != 0 && (code == 128 + SIGXFSZ || outputReached)) {
            outcome = FinishedJob.Outcome.FAILED;
            error = "disk limit exceeded: a file it wrote (its stdout, its stderr or another) reached its disk limit of "
                    + NodeMeters.mib(diskLimit) + " and the kernel stopped it (SIGXFSZ)";
        } else if (code != null && code == 0) {
            outcome = FinishedJob.Outcome.COMPLETED;
            error = null;
        } else {
            outcome = FinishedJob.Outcome.FAILED;
            error = code == null ? "the process could not be waited for" : code > 128
                    ? "killed by signal " + (code - 128) : "exit code " + code;
        }
        if (outcome != FinishedJob.Outcome.COMPLETED) {
            if (pidsLimited) {
                error = error + "; the job reached its limit of " + pidsLimit
                        + " processes and threads, and forks beyond it failed";
            }
            error = error + stderrTail;
        }
        return new JobEnding(outcome, job.stopOutcome != null ? null : code, error);
    }
}
