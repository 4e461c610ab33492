package io.grove.core.accounting;

import io.grove.core.operation.Job;
import io.grove.core.operation.JobCpu;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.resource.Resources;
import java.util.List;

/**
 * One job attempt as the ledger keeps it once it ended.
 *
 * @param jobId the attempt's id, which makes the record unique (written twice, kept once)
 * @param pool the pool it ran in; {@code poolPath} its path from the root, {@code a/b/c}
 * @param resources what it ordered
 * @param exitCode its process's exit code, or {@code null} (killed, aborted, never started)
 * @param reason why it ended as it did ({@code failed}, {@code preempted}, {@code node_offline}, ...), or {@code null}
 * @param message what its node or the scheduler said (a failure's stderr tail, a preemption's
 *     preemptor), at most {@value #MAX_MESSAGE} characters
 * @param cpuSeconds the CPU time its processes used as its node counted it, or {@code null}
 * @param gpuSeconds GPUs held times its duration
 * @param lostWorkSeconds when it was preempted: the seconds of work it lost, since its last
 *     checkpoint (or its start); {@code null} when it lost none
 */
public record JobRecord(String jobId, String operationId, String task, int index, int attempt, String user,
        String tree, String pool, String poolPath, String node, Resources resources, long startMs, long endMs,
        String state, Integer exitCode, String reason, String message, Double cpuSeconds, double gpuSeconds,
        Double lostWorkSeconds) {

    public static final int MAX_MESSAGE = 2000;

    /** A record of a job that lost no work to a preemption. */
    public JobRecord(String jobId, String operationId, String task, int index, int attempt, String user, String tree,
            String pool, String poolPath, String node, Resources resources, long startMs, long endMs, String state,
            Integer exitCode, String reason, String message, Double cpuSeconds, double gpuSeconds) {
        this(jobId, operationId, task, index, attempt, user, tree, pool, poolPath, node, resources, startMs, endMs, state,
                exitCode, reason, message, cpuSeconds, gpuSeconds, null);
    }

    public JobRecord {
        message = message == null || message.length() <= MAX_MESSAGE ? message : message.substring(0, MAX_MESSAGE);
    }

    /**
     * The record of an ended job of {@code user}'s operation, placed in {@code pool} whose path up
     * to its tree's root is {@code toRoot} ({@code null}: unknown). Reads only what a job no longer
     * changes once it ended, so it may be made on any thread after the end was handed over.
     */
    public static JobRecord of(Job job, String user, String pool, List<String> toRoot) {
        return withPath(job, user, pool, pool != null && toRoot != null ? joinedPath(toRoot) : null);
    }

    /** The path {@code a/b/c} of a pool whose path up to its tree's root is {@code toRoot} (the root left out). */
    public static String joinedPath(List<String> toRoot) {
        StringBuilder joined = new StringBuilder();
        for (int i = toRoot.size() - 1; i >= 0; i--) {
            if (!toRoot.get(i).equals(PoolTreeConfig.ROOT)) {
                joined.append(joined.length() == 0 ? "" : "/").append(toRoot.get(i));
            }
        }
        return joined.toString();
    }

    /** As above, with the pool's path joined already ({@code null}: unknown). */
    public static JobRecord withPath(Job job, String user, String pool, String path) {
        long start = job.startTime().toEpochMilli();
        long end = job.finishTime() == null ? start : job.finishTime().toEpochMilli();
        JobCpu cpu = job.cpu();
        return new JobRecord(job.id(), job.operationId(), job.task().name(), job.index(), job.attempt(), user,
                job.tree(), pool, path, job.nodeId(), job.resources(), start, end, job.state().key(), job.exitCode(),
                job.endReason() == null ? null : job.endReason().key(), job.message(),
                cpu == null ? null : cpu.cpuSeconds(), job.resources().gpu() * Math.max(0, end - start) / 1000.0,
                job.lostWorkMs() < 0 ? null : job.lostWorkMs() / 1000.0);
    }

    /** How long it ran, in seconds. */
    public double seconds() {
        return Math.max(0, endMs - startMs) / 1000.0;
    }
}
