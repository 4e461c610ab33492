package io.grove.api;

import java.util.List;

/**
 * One attempt of one job.
 *
 * @param state {@code running}, {@code completed}, {@code failed} or {@code aborted}
 * @param nodeAddress the node agent's HTTP endpoint, where the job's logs are
 * @param reason why it ended: {@code failed}, {@code preempted}, {@code resource_limits_violated}, ...
 * @param gpus the UUIDs of the GPUs its node gave it (absent for none)
 * @param cpuSeconds CPU time its processes used, as its node last counted (absent before)
 * @param cpuThrottledSeconds how long its CPU quota held it back (absent where not counted)
 * @param cpuThrottledShare the share of quota periods in which it was throttled, 0..1 (absent where not counted)
 * @param preparing while its node prepares it (state {@code preparing}): what it waits for, such as
 *     {@code pulling registry/x:1 (12 of 80 MiB)}
 * @param image the container image it runs in ({@code docker_image}); absent for a job on the node itself
 * @param imageDigest the digest its node resolved the image to (absent before)
 * @param imagePullMs how long its node took to pull and unpack the image, 0 when cached (absent before)
 * @param gangRank its rank in its gang (absent for a job of no gang)
 * @param lastCheckpoint when it last reported a checkpoint (touched {@code $GROVE_CHECKPOINT_FILE}),
 *     by the scheduler's clock (absent when it reported none)
 * @param lostWorkSeconds when it was preempted: the seconds of work it lost, from its last checkpoint
 *     (or its start) to its end (absent when it lost none)
 */
public record JobView(String id, String operationId, String task, int index, int attempt, String state, String node,
        String nodeAddress, String tree, Amounts resources, @Timestamp String startedAt, @Timestamp String finishedAt, String reason,
        String message, List<String> gpus, Double cpuSeconds, Double cpuThrottledSeconds,
        Double cpuThrottledShare, String preparing, String image, String imageDigest, Long imagePullMs,
        PreemptedFor preemptedFor, Integer gangRank, @Timestamp String lastCheckpoint, Double lostWorkSeconds) {

    /**
     * What a preempted job was taken for: {@code reason} ({@code starvation},
     * {@code aggressive_starvation}, {@code resource_limits_violated}, {@code graceful},
     * {@code pool_drained}, {@code gang_restart}, {@code time_limit}) and, when another operation got the room, {@code operationId} and its
     * {@code pool}. The job's {@code message} says it in full (the starving pool's usage against its
     * fair share).
     */
    public record PreemptedFor(String reason, String operationId, String pool) {
    }
}
