package io.grove.core.schedule;

import io.grove.core.pool.JobDefaults;
import io.grove.core.resource.Resources;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The answer to one heartbeat: jobs to start, jobs to preempt, jobs to abort, and why the node's
 * remaining resources stay idle. A decision is a value; the scheduler applies it afterwards.
 *
 * @param nodeId the node
 * @param tree the node's pool tree, or {@code null} if it has none
 * @param starts jobs to start, in order
 * @param preemptions jobs to interrupt, each with its preemptor and grace
 * @param aborts jobs to kill now
 * @param idle why nothing more was started although resources remain
 * @param preemptivePass whether a preemptive pass ran (it starts the node's backoff)
 * @param offers what the node would lose to start a job of each starving operation it did not
 *     take victims for (docs/scheduling.md#least-lost-work)
 */
public record Decision(
        String nodeId,
        String tree,
        List<JobStart> starts,
        List<JobPreemption> preemptions,
        List<JobAbort> aborts,
        List<IdleReason> idle,
        boolean preemptivePass,
        List<PreemptionOffer> offers) {

    /** A decision that offers nothing for starving operations. */
    public Decision(String nodeId, String tree, List<JobStart> starts, List<JobPreemption> preemptions,
            List<JobAbort> aborts, List<IdleReason> idle, boolean preemptivePass) {
        this(nodeId, tree, starts, preemptions, aborts, idle, preemptivePass, List.of());
    }

    public Decision {
        offers = List.copyOf(offers);
        starts = List.copyOf(starts);
        preemptions = List.copyOf(preemptions);
        aborts = List.copyOf(aborts);
        idle = List.copyOf(idle);
    }

    /**
     * A job to start.
     *
     * @param jobId the new attempt's id
     * @param operationId its operation
     * @param task the task's name
     * @param index the job's index within the task
     * @param command the shell command
     * @param env environment
     * @param resources what the job may use
     * @param preemptive whether it was started by preempting others
     */
    /**
     * A job to start.
     *
     * @param diskSpace the disk it ordered, in bytes; 0 for none
     * @param image the container image it runs in, or {@code null}
     * @param defaults what its node holds it to where it ordered no memory or disk (its tree's)
     */
    public record JobStart(String jobId, String operationId, String task, int index, String command,
            Map<String, String> env, Resources resources, boolean preemptive, long diskSpace,
            JobDefaults defaults, String image) {
    }

    /** Why a job is interrupted. */
    public enum PreemptionReason {
        /** For an operation starving longer than its starvation timeout. */
        STARVATION,
        /** For an operation starving aggressively. */
        AGGRESSIVE_STARVATION,
        /** Its graceful operation is above its fair share. */
        GRACEFUL,
        /** Its operation, or a pool above it, uses more than its resource limits (lowered since it started). */
        RESOURCE_LIMITS_VIOLATED,
        /** Its pool, or one above it, is drained by an administrator. */
        POOL_DRAINED,
        /** Its node is drained by an administrator with its running jobs stopped ({@code grove nodes drain --now}). */
        NODE_DRAINED,
        /** Another rank of its gang ended: every rank stops, and the gang starts again as a whole. */
        GANG_RESTART,
        /** It ran past its time limit ({@code time_limit}, or its pool's default or maximum). */
        TIME_LIMIT
    }

    /**
     * A job to interrupt: the node stops it after {@code grace}.
     *
     * @param jobId the victim
     * @param operationId the victim's operation
     * @param reason why
     * @param preemptorOperationId the operation the resources go to, or {@code null}
     * @param preemptorJobId the job started with them, or {@code null}
     * @param grace how long the job may take to stop
     * @param message the full reason for logs and the user
     */
    public record JobPreemption(String jobId, String operationId, PreemptionReason reason, String preemptorOperationId,
            String preemptorJobId, Duration grace, String message) {
    }

    /**
     * What the node would lose to start one job of a starving operation with preemption: the
     * victims' dominant shares times the seconds since their last checkpoints (or starts), growing
     * by {@code rate} a second; {@code cost} is infinite when no job of it fits here even with every
     * job the rules let it take.
     *
     * @param operationId the starving operation
     * @param wanted how many of its jobs it is short of its fair share (at least 1)
     */
    public record PreemptionOffer(String operationId, double cost, double rate, int wanted) {
    }

    /** Why a job is killed at once. */
    public enum AbortReason {
        /** The node runs a job the scheduler does not know (or knows on another node). */
        UNKNOWN_JOB,
        /** The node's usage exceeds its limits. */
        RESOURCE_OVERCOMMIT,
        /** The scheduler ended the job already (preempted, operation aborted or failed, node lost). */
        ENDED_BY_SCHEDULER
    }

    /** A job to kill now. */
    public record JobAbort(String jobId, AbortReason reason, String message) {
    }

    /** Why resources stay idle. */
    public enum IdleCode {
        /** No operation in the node's tree has a pending job. */
        NO_DEMAND,
        /** Pending jobs are bigger than what is free on this node. */
        FRAGMENTATION,
        /** Pending jobs would break a pool's or an operation's resource limits. */
        LIMITS,
        /** Operations may not run here: their or a pool's scheduling tag filter does not match the node. */
        UNMATCHED_TAGS,
        /** The node matches no pool tree. */
        NO_TREE,
        /** The node matches more than one pool tree. */
        AMBIGUOUS_TREE,
        /** The tree has no fair share yet (no update since the node or the operations came). */
        NO_FAIR_SHARE,
        /** Pending jobs order more disk space than the node has free. */
        DISK,
        /** Pending jobs run in container images, which the node does not run. */
        NO_IMAGES,
        /** The node says it cannot start jobs (disk full, broker stuck, cgroups gone). */
        UNSCHEDULABLE,
        /** The node is reserved for a starving gang, and pending jobs could still run when it is to start. */
        RESERVED
    }

    /**
     * Why resources stay idle, with the numbers.
     *
     * @param code the reason
     * @param operations how many operations it holds back
     * @param free what the node had free when the reason was recorded
     * @param message the details
     */
    public record IdleReason(IdleCode code, int operations, Resources free, String message) {
    }

    /** A decision for a node that gets nothing. */
    public static Decision nothing(String nodeId, String tree, List<JobAbort> aborts, List<IdleReason> idle) {
        return new Decision(nodeId, tree, List.of(), List.of(), aborts, idle, false);
    }
}
