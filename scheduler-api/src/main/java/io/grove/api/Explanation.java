package io.grove.api;

import java.util.List;

/**
 * {@code GET /api/v1/operations/{id}/explain}: for each tree of an operation, the checks the
 * scheduler makes before it starts the operation's next job, in its order, and the verdict — the
 * first that blocks, or {@code schedulable}.
 */
public record Explanation(String operationId, String state, List<Tree> trees, List<Preemption> preemptions,
        Forecast forecast) {

    /** This explanation with a forecast. */
    public Explanation withForecast(Forecast value) {
        return new Explanation(operationId, state, trees, preemptions, value);
    }

    /**
     * When its pending jobs are predicted to start: the next one and the last one, each a band
     * ({@code earliest} to {@code latest}, the 10th and 90th percentile over draws of job durations,
     * and the {@code likely} median; absent when not within a day), what the prediction assumed,
     * and why there is none ({@code unknown}).
     */
    public record Forecast(Band nextStart, Band lastStart, List<String> assumptions, String unknown) {
    }

    /** A band of predicted times. */
    public record Band(@Timestamp String earliest, @Timestamp String likely, @Timestamp String latest) {
    }

    /**
     * One of the operation's jobs that was preempted, newest first (the last ten the scheduler
     * remembers): when, what for, and the full reason.
     */
    public record Preemption(String jobId, @Timestamp String at, String reason, String forOperation, String forPool, String message) {
    }

    /** One tree: the operation's pool there, the verdict's code and every check. */
    public record Tree(String tree, String pool, String verdict, List<Check> checks) {
    }

    /**
     * One check.
     *
     * @param code {@code finished}, {@code cpu_throttled}, {@code nothing_pending}, {@code count_limit}, {@code no_fair_share_yet},
     *     {@code resource_limits}, {@code fair_share}, {@code no_matching_node},
     *     {@code job_larger_than_every_node}, {@code no_room_for_disk}, {@code no_schedulable_node}, {@code nodes_full},
     *     {@code starvation} or {@code schedulable}
     * @param blocks whether it keeps the next job from starting now
     * @param pool the pool (or operation) it names: the count limit's, the one at its resource limits
     * @param node for {@code nodes_full}: the matching node with the most room
     * @param queuePosition for a count limit: the place in the pool's queue, 1 for the first
     * @param job what the next job asks for
     * @param available what the check compares the job with: room under a limit, the largest node, the most free room
     * @param levels for {@code fair_share}: the path from the operation up to the root
     * @param at for {@code starvation}: when it starves and preemption may start for it
     */
    public record Check(String code, boolean blocks, String message, String pool, String node, Integer limit,
            Integer queuePosition,
            Amounts job, Amounts available, List<Level> levels, @Timestamp String at) {
    }

    /** One level of the path: dominant shares of the tree, and its satisfaction (usage against fair share). */
    public record Level(String id, double fairShare, double usageShare, double demandShare, double satisfaction) {
    }
}
