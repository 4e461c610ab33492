package io.grove.server.state;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import io.grove.core.accounting.JobRecord;
import io.grove.core.accounting.OperationRecord;
import io.grove.core.fairshare.IntegralState;
import io.grove.core.operation.JobEndReason;
import io.grove.core.operation.JobState;
import io.grove.core.operation.Operation;
import io.grove.core.operation.OperationSpec;
import io.grove.core.operation.OperationState;
import io.grove.core.operation.PreemptedFor;
import io.grove.core.resource.Resources;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** One journal record. Times are epoch milliseconds. */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "event")
@JsonSubTypes({
    @JsonSubTypes.Type(value = JournalEvent.Submitted.class, name = "submitted"),
    @JsonSubTypes.Type(value = JournalEvent.Aborted.class, name = "aborted"),
    @JsonSubTypes.Type(value = JournalEvent.Updated.class, name = "updated"),
    @JsonSubTypes.Type(value = JournalEvent.JobStarted.class, name = "job_started"),
    @JsonSubTypes.Type(value = JournalEvent.JobEnded.class, name = "job_ended"),
    @JsonSubTypes.Type(value = JournalEvent.OperationFinished.class, name = "operation_finished"),
    @JsonSubTypes.Type(value = JournalEvent.Progress.class, name = "progress"),
    @JsonSubTypes.Type(value = JournalEvent.IntegralVolumes.class, name = "integral_volumes"),
    @JsonSubTypes.Type(value = JournalEvent.LedgerPending.class, name = "ledger_pending"),
    @JsonSubTypes.Type(value = JournalEvent.PoolPaused.class, name = "pool_paused"),
    @JsonSubTypes.Type(value = JournalEvent.PoolResumed.class, name = "pool_resumed"),
    @JsonSubTypes.Type(value = JournalEvent.GangReserved.class, name = "gang_reserved"),
    @JsonSubTypes.Type(value = JournalEvent.GangUnreserved.class, name = "gang_unreserved"),
    @JsonSubTypes.Type(value = JournalEvent.NodeDrained.class, name = "node_drained"),
    @JsonSubTypes.Type(value = JournalEvent.NodeUndrained.class, name = "node_undrained")
})
public sealed interface JournalEvent {

    /** An accepted submission. */
    record Submitted(String id, OperationSpec spec, String user, long at, String idempotencyKey) implements JournalEvent {
        public Submitted(String id, OperationSpec spec, String user, long at) {
            this(id, spec, user, at, null);
        }
    }

    /** An operation aborted by a user or an admin. */
    record Aborted(String id, long at, String message) implements JournalEvent {
    }

    /** A runtime update of an operation; {@code null} fields were not changed. */
    record Updated(String id, Double weight, Resources resourceLimits, String tree, String pool,
            long at) implements JournalEvent {
    }

    /** A job attempt started on a node. */
    record JobStarted(String jobId, String operationId, String task, int index, int attempt, String nodeId,
            String tree, long at, Set<String> startedByPreempting, double preemptorFairShare) implements JournalEvent {
        public JobStarted {
            startedByPreempting = startedByPreempting == null ? Set.of() : Set.copyOf(startedByPreempting);
        }
    }

    /** A job attempt ended. */
    record JobEnded(String jobId, JobState state, JobEndReason reason, String message, long at,
            PreemptedFor preemptedFor) implements JournalEvent {
        public JobEnded(String jobId, JobState state, JobEndReason reason, String message, long at) {
            this(jobId, state, reason, message, at, null);
        }
    }

    /** A finished operation in a compacted journal: its outcome without its jobs. */
    record OperationFinished(String id, OperationState state, long at, String message, int completed, int failed,
            int aborted) implements JournalEvent {
    }

    /** An unfinished operation's progress in a compacted journal (its running jobs follow as job_started). */
    record Progress(String id, Operation.Progress progress) implements JournalEvent {
    }

    /** A tree's integral volumes. */
    record IntegralVolumes(String tree, Map<String, IntegralState> pools, long at) implements JournalEvent {
        public IntegralVolumes {
            pools = Map.copyOf(pools);
        }
    }

    /**
     * In a snapshot: the job and operation records the ledger had not written to the accounting
     * database yet, whose ends the snapshot drops; written again at revival, kept once.
     */
    record LedgerPending(List<JobRecord> jobs,
            List<OperationRecord> operations) implements JournalEvent {
        public LedgerPending {
            jobs = jobs == null ? List.of() : List.copyOf(jobs);
            operations = operations == null ? List.of() : List.copyOf(operations);
        }
    }

    /** A pool paused (or drained) by an administrator. */
    record PoolPaused(String tree, String pool, boolean drain, String user, long at) implements JournalEvent {
    }

    /** A paused pool resumed. */
    record PoolResumed(String tree, String pool, String user, long at) implements JournalEvent {
    }

    /** A node drained by an administrator ({@code now}: its running jobs stopped too). */
    record NodeDrained(String node, String reason, boolean now, String user, long at) implements JournalEvent {
    }

    /** A drained node undrained. */
    record NodeUndrained(String node, String user, long at) implements JournalEvent {
    }

    /** A starving gang's reservation: the nodes it holds and what its ranks need on each. */
    record GangReserved(String tree, String operationId, String domain, Map<String, Resources> nodes, long since)
            implements JournalEvent {
        public GangReserved {
            nodes = Map.copyOf(nodes);
        }
    }

    /** A gang's reservation dropped. */
    record GangUnreserved(String tree, String operationId, long at) implements JournalEvent {
    }
}
