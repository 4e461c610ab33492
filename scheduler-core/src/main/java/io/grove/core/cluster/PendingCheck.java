package io.grove.core.cluster;

import io.grove.core.resource.Resources;
import java.time.Instant;
import java.util.List;

/**
 * One check of why an operation's next job does or does not start in a tree, in the order the
 * scheduler makes them ({@code docs/scheduling.md#why-is-it-pending}).
 *
 * @param blocks whether this check keeps the next job from starting now
 * @param pool the pool (or operation) the check names: the count limit's pool, the element at its limits
 * @param node for {@code NODES_FULL}: the matching node with the most room
 * @param limit the count limit
 * @param queuePosition the place in the count limit's queue, from 0
 * @param job what the next job asks for
 * @param available what the check compares the job with: the room under a limit, the largest node,
 *     the most free room on a node
 * @param levels the path from the operation up to the root, with each level's shares
 * @param at for starvation: when the operation starves and its preemption may start
 */
public record PendingCheck(Code code, boolean blocks, String message, String pool, String node, Integer limit,
        Integer queuePosition,
        Resources job, Resources available, List<Level> levels, Instant at) {

    /** The checks, in the scheduler's order. */
    public enum Code {
        /** The operation has ended: nothing will start. */
        FINISHED,
        /** Its running jobs are throttled most of the time by their CPU quota; blocks nothing. */
        CPU_THROTTLED,
        /** Every job runs or ended: nothing waits. */
        NOTHING_PENDING,
        /** Queued behind a pool's {@code max_running_operation_count}. */
        COUNT_LIMIT,
        /** Its pool, or one above it, is paused by an administrator: no job of it starts. */
        POOL_PAUSED,
        /** It waits for another operation to end ({@code depends_on}), or never can start because one ended otherwise. */
        DEPENDENCY,
        /** No fair-share update has included it yet. */
        NO_FAIR_SHARE_YET,
        /** The operation, its pool or an ancestor has no room for one more job under its resource limits. */
        RESOURCE_LIMITS,
        /** How far each level of its path is from its fair share; blocks nothing on its own. */
        FAIR_SHARE,
        /** No online node of the tree matches its scheduling tag filter. */
        NO_MATCHING_NODE,
        /** Its jobs run in a container image and no matching node runs images. */
        NO_IMAGE_NODE,
        /** A job asks for more than any matching online node has. */
        JOB_LARGER_THAN_EVERY_NODE,
        /** A job's disk_space is more than any matching node has free. */
        NO_ROOM_FOR_DISK,
        /** Every matching node is drained or says it cannot start jobs (disk full, cgroups gone). */
        NO_SCHEDULABLE_NODE,
        /** No matching node has room for one job now. */
        NODES_FULL,
        /** Below its fair share; when it starves, preemption may free room for it. */
        STARVATION,
        /**
         * A gang: where its plan stands (its ranks being started on their nodes), or why it waits
         * for room for every rank at once (the domains that came closest).
         */
        GANG,
        /** Nothing keeps it from starting a job: the next heartbeat of a node with room should. */
        SCHEDULABLE
    }

    /** One level of an operation's path: its fair share and usage (dominant shares) and its satisfaction. */
    public record Level(String id, double fairShare, double usageShare, double demandShare, double satisfaction) {
    }

    static PendingCheck of(Code code, boolean blocks, String message) {
        return new PendingCheck(code, blocks, message, null, null, null, null, null, null, null, null);
    }
}
