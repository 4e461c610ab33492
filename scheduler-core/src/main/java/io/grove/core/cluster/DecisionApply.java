package io.grove.core.cluster;

import io.grove.core.node.Node;
import io.grove.core.operation.Job;
import io.grove.core.operation.JobEndReason;
import io.grove.core.operation.JobState;
import io.grove.core.operation.Operation;
import io.grove.core.operation.OperationRegistry;
import io.grove.core.operation.PreemptedFor;
import io.grove.core.operation.TaskSpec;
import io.grove.core.schedule.Decision;
import io.grove.core.schedule.SchedulingIndex;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** {@link Cluster#apply}: a heartbeat's decision made real. */
final class DecisionApply {

    private DecisionApply() {
    }

    static void apply(Cluster cluster, Decision decision, Instant now) {
        OperationRegistry registry = cluster.registry();
        Node node = cluster.node(decision.nodeId());
        Map<String, Set<String>> victimsByPreemptor = new HashMap<>();
        for (Decision.JobPreemption preemption : decision.preemptions()) {
            Job victim = registry.runningJob(preemption.jobId());
            // a gang's room names its operation, not a job: its ranks started here are protected the same way
            String preemptor = preemption.preemptorJobId() != null ? preemption.preemptorJobId()
                    : preemption.preemptorOperationId();
            if (victim != null && preemptor != null) {
                victimsByPreemptor.computeIfAbsent(preemptor, k -> new HashSet<>()).add(victim.operationId());
            }
        }
        SchedulingIndex index = decision.tree() == null ? null : cluster.schedulingIndex(decision.tree());
        for (Decision.JobStart start : decision.starts()) {
            Operation operation = registry.operation(start.operationId());
            TaskSpec task = operation.spec().tasks().get(start.task());
            boolean gang = operation.spec().gang();
            Job job = registry.startJob(operation, task, gang ? start.index() : -1, node.id(), decision.tree(), now,
                    victimsByPreemptor.getOrDefault(start.jobId(),
                            gang ? victimsByPreemptor.getOrDefault(start.operationId(), Set.of()) : Set.of()),
                    index.dominantFairShare(operation.id()));
            if (!job.id().equals(start.jobId()) || job.index() != start.index()) {
                throw new IllegalStateException("decision planned job " + start.jobId() + " #" + start.index()
                        + " but the operation started " + job.id() + " #" + job.index());
            }
            node.addJob(job);
            index.jobStarted(job);
            if (gang) {
                cluster.gangs().started(job);
            }
            if (operation.hasTimeLimits()) {
                cluster.timeLimits().started(job, operation.timeLimit(decision.tree(), operation.position(task)));
            }
        }
        for (Decision.JobAbort abort : decision.aborts()) {
            Job job = registry.runningJob(abort.jobId());
            if (job != null && abort.reason() == Decision.AbortReason.RESOURCE_OVERCOMMIT) {
                cluster.endJob(job, JobState.ABORTED, now, JobEndReason.RESOURCE_OVERCOMMIT, abort.message());
            }
        }
        for (Decision.JobPreemption preemption : decision.preemptions()) {
            Job job = registry.runningJob(preemption.jobId());
            if (job == null) {
                continue;
            }
            job.preemptedFor(preemptedFor(registry, preemption, decision.tree()));
            switch (preemption.reason()) {
                case GRACEFUL, POOL_DRAINED, NODE_DRAINED -> registry.markInterrupting(job.id(), now.plus(preemption.grace()));
                case GANG_RESTART, TIME_LIMIT -> {
                    registry.markInterrupting(job.id(), now.plus(preemption.grace()));
                    node.interrupted(job.id());
                }
                case RESOURCE_LIMITS_VIOLATED -> cluster.endJob(job, JobState.ABORTED, now,
                        JobEndReason.RESOURCE_LIMITS_VIOLATED, preemption.message());
                default -> cluster.endJob(job, JobState.ABORTED, now, JobEndReason.PREEMPTED, preemption.message());
            }
        }
        if (decision.preemptivePass()) {
            node.preemptivePassAt(now);
            offered(cluster, decision, now);
        }
        cluster.counted(node);
    }

    /** The tree learns what the node offered and which starving operations it took victims for; invited nodes come now. */
    private static void offered(Cluster cluster, Decision decision, Instant now) {
        TreeState tree = decision.tree() == null ? null : cluster.treeState(decision.tree());
        if (tree == null) {
            return;
        }
        List<String> tookFor = new ArrayList<>(1);
        for (Decision.JobStart start : decision.starts()) {
            if (start.preemptive()) {
                tookFor.add(start.operationId());
            }
        }
        if (!tookFor.isEmpty() || !decision.offers().isEmpty()) {
            tree.offers.applied(decision.nodeId(), tookFor, decision.offers(), now).forEach(cluster.gangs()::nudge);
        }
    }

    /** What a preemption takes a job for: the preemptor and its pool in the tree, and the reason in a word. */
    private static PreemptedFor preemptedFor(OperationRegistry registry, Decision.JobPreemption preemption, String tree) {
        Operation preemptor = preemption.preemptorOperationId() == null ? null
                : registry.operation(preemption.preemptorOperationId());
        return new PreemptedFor(preemption.reason().name().toLowerCase(Locale.ROOT),
                preemption.preemptorOperationId(), preemptor == null ? null : preemptor.poolByTree().get(tree));
    }
}
