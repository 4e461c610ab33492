package io.grove.server.state;

import io.grove.core.cluster.Cluster;
import io.grove.core.cluster.ClusterView;
import io.grove.core.fairshare.IntegralState;
import io.grove.core.operation.Job;
import io.grove.core.operation.Operation;
import io.grove.core.operation.ProgressCapture;
import io.grove.core.operation.SubmitException;
import io.grove.core.node.NodeDrain;
import io.grove.core.pool.PoolPause;
import io.grove.core.schedule.GangReservation;
import java.time.Instant;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Replays journal events into a fresh cluster after a restart, and turns a live cluster back into
 * the shortest list of events that replays to it (the snapshot a compaction writes).
 */
public final class Revival {

    private static final Logger LOG = LoggerFactory.getLogger(Revival.class);

    private Revival() {
    }

    /**
     * What a replay found.
     *
     * @param endedJobs the jobs whose ends were replayed (since the last snapshot), for the ledger
     * @param ledgerPending the records the ledger had not written when the last snapshot was taken
     */
    public record Outcome(int operations, int runningJobs, long highestOperationNumber, List<Job> endedJobs,
            List<JournalEvent.LedgerPending> ledgerPending) {

        public Outcome(int operations, int runningJobs, long highestOperationNumber) {
            this(operations, runningJobs, highestOperationNumber, List.of(), List.of());
        }

        /** The operations that are finished (their records are written again, and kept once). */
        public List<Operation> finished(ClusterView cluster) {
            List<Operation> finished = new ArrayList<>();
            for (Operation operation : cluster.registry().operations()) {
                if (operation.state().isFinished()) {
                    finished.add(operation);
                }
            }
            return finished;
        }
    }

    /**
     * Replays {@code events}. Running jobs wait for their nodes to reconnect (see
     * {@link Cluster#restoreRunningJob}); integral volumes resume from the last saved ones.
     */
    public static Outcome replay(Cluster cluster, List<JournalEvent> events, Instant now) {
        long highest = 0;
        List<Job> ended = new ArrayList<>();
        List<JournalEvent.LedgerPending> pending = new ArrayList<>();
        Map<String, Map<String, IntegralState>> volumes = new HashMap<>();
        for (JournalEvent event : events) {
            try {
                if (event instanceof JournalEvent.Submitted submitted) {
                    cluster.registry().restoreSubmitted(submitted.id(), submitted.spec(), submitted.user(),
                            Instant.ofEpochMilli(submitted.at()), submitted.idempotencyKey());
                    highest = Math.max(highest, number(submitted.id()));
                } else if (event instanceof JournalEvent.Aborted aborted) {
                    Operation operation = cluster.registry().operation(aborted.id());
                    if (operation != null && !operation.state().isFinished()) {
                        cluster.abort(aborted.id(), Instant.ofEpochMilli(aborted.at()), aborted.message());
                    }
                } else if (event instanceof JournalEvent.Updated updated) {
                    cluster.updateOperation(updated.id(), updated.weight(), updated.resourceLimits(), updated.tree(),
                            updated.pool());
                } else if (event instanceof JournalEvent.JobStarted started) {
                    Operation operation = cluster.registry().operation(started.operationId());
                    if (operation != null && !operation.state().isFinished()) {
                        cluster.revival().restoreRunningJob(started.operationId(), started.jobId(), started.task(), started.index(),
                                started.attempt(), started.nodeId(), started.tree(), Instant.ofEpochMilli(started.at()),
                                started.startedByPreempting(), started.preemptorFairShare(), now);
                    }
                } else if (event instanceof JournalEvent.JobEnded end) {
                    Job job = cluster.registry().runningJob(end.jobId());
                    if (job != null && end.preemptedFor() != null) {
                        job.preemptedFor(end.preemptedFor());
                    }
                    if (cluster.revival().replayJobEnd(end.jobId(), end.state(), Instant.ofEpochMilli(end.at()), end.reason(),
                            end.message())) {
                        ended.add(job);
                    }
                } else if (event instanceof JournalEvent.OperationFinished finished) {
                    cluster.registry().restoreFinished(finished.id(), finished.state(), Instant.ofEpochMilli(finished.at()),
                            finished.message(), finished.completed(), finished.failed(), finished.aborted());
                } else if (event instanceof JournalEvent.Progress progress) {
                    cluster.registry().restoreProgress(progress.id(), progress.progress());
                } else if (event instanceof JournalEvent.IntegralVolumes saved) {
                    volumes.put(saved.tree(), saved.pools());
                } else if (event instanceof JournalEvent.LedgerPending records) {
                    pending.add(records);
                } else if (event instanceof JournalEvent.PoolPaused paused) {
                    cluster.pause(new PoolPause(paused.tree(), paused.pool(), paused.drain(), paused.user(),
                            Instant.ofEpochMilli(paused.at())));
                } else if (event instanceof JournalEvent.PoolResumed resumed) {
                    cluster.resume(resumed.tree(), resumed.pool());
                } else if (event instanceof JournalEvent.NodeDrained drained) {
                    cluster.drains().drain(drain(drained));
                } else if (event instanceof JournalEvent.NodeUndrained undrained) {
                    cluster.drains().undrain(undrained.node());
                } else if (event instanceof JournalEvent.GangReserved reserved) {
                    cluster.revival().restoreReservation(new GangReservation(reserved.operationId(), reserved.tree(),
                            reserved.domain(), reserved.nodes(), Instant.ofEpochMilli(reserved.since()), null));
                } else if (event instanceof JournalEvent.GangUnreserved unreserved) {
                    cluster.revival().restoreUnreserved(unreserved.tree(), unreserved.operationId());
                }
            } catch (SubmitException | IllegalStateException | IllegalArgumentException e) {
                LOG.warn("journal: skipped {}: {}", event.getClass().getSimpleName(), e.getMessage());
            }
        }
        volumes.forEach(cluster.revival()::restoreIntegralState);
        int operations = 0;
        for (Operation operation : cluster.registry().operations()) {
            if (!operation.state().isFinished()) {
                operations++;
            }
        }
        return new Outcome(operations, cluster.registry().runningJobCount(), highest, ended, pending);
    }

    /** The number in an id {@code op-<n>}, or 0. */
    static long number(String id) {
        int dash = id.lastIndexOf('-');
        try {
            return dash < 0 ? 0 : Long.parseLong(id.substring(dash + 1));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /**
     * The live state as events: finished operations by their outcome; unfinished ones by their
     * progress (which indexes are done or waiting, attempts, counts) and their running jobs;
     * integral volumes. Its size grows with the operations and running jobs, not with the jobs done.
     */
    public static List<JournalEvent> snapshot(ClusterView cluster, Instant now) {
        return capture(cluster, now).events();
    }

    /**
     * The part of {@link #snapshot} that must run where the cluster is changed: the operations'
     * events, copies of their task queues, and the running jobs themselves (whose recorded fields
     * never change). Turning the jobs into events and the queues into progress, the bulk of a busy
     * cluster's snapshot, is left to {@link Captured#events}, which may run on any thread: on the
     * scheduler thread a snapshot costs one reference per running job.
     */
    public static Captured capture(ClusterView cluster, Instant now) {
        List<Object> parts = new ArrayList<>();
        int size = 0;
        for (Operation operation : cluster.registry().operations()) {
            if (operation.held()) {
                continue; // its record is in flight: added after the snapshot if it is written (WriteAhead)
            }
            parts.add(new JournalEvent.Submitted(operation.id(), operation.spec(), operation.user(),
                    operation.submitTime().toEpochMilli(), operation.submissionKey()));
            size += 2;
            if (operation.state().isFinished()) {
                parts.add(new JournalEvent.OperationFinished(operation.id(), operation.state(),
                        operation.finishTime() == null ? now.toEpochMilli() : operation.finishTime().toEpochMilli(),
                        operation.finalMessage(), operation.completedJobCount(), operation.failedJobCount(),
                        operation.abortedJobCount()));
                continue;
            }
            Job[] running = operation.runningJobsArray();
            parts.add(new Unfinished(operation.id(), operation.captureProgress(), running));
            size += running.length;
        }
        for (NodeDrain drain : cluster.drains().all().values()) {
            parts.add(drained(drain));
            size++;
        }
        for (String tree : cluster.treeNames()) {
            parts.add(new JournalEvent.IntegralVolumes(tree, cluster.integralState(tree), now.toEpochMilli()));
            size++;
            for (PoolPause pause : cluster.pauses(tree).values()) {
                parts.add(paused(pause));
                size++;
            }
            for (GangReservation reservation : cluster.reservations(tree)) {
                parts.add(reserved(reservation));
                size++;
            }
        }
        return new Captured(parts, size);
    }

    /** A snapshot taken but not yet turned into events: events, and arrays of running jobs. */
    public static final class Captured {
        private final List<Object> parts;
        private final int size;

        private Captured(List<Object> parts, int size) {
            this.parts = parts;
            this.size = size;
        }

        /** This snapshot with one more event at its end. */
        public Captured with(JournalEvent extra) {
            return with((Supplier<JournalEvent>) () -> extra);
        }

        /** This snapshot with one more event at its end, made when it is read (on the log's thread). */
        public Captured with(Supplier<JournalEvent> later) {
            List<Object> more = new ArrayList<>(parts);
            more.add(later);
            return new Captured(more, size + 1);
        }

        /** How many events {@link #events} gives. */
        public int size() {
            return size;
        }

        /**
         * The events, made one at a time as they are read: a compaction encodes and writes each
         * before the next exists, so a snapshot of hundreds of thousands of running jobs never lives
         * whole on the heap (where a young collection during the write would copy all of it).
         */
        public List<JournalEvent> events() {
            int[] starts = new int[parts.size() + 1];
            for (int p = 0; p < parts.size(); p++) {
                Object part = parts.get(p);
                starts[p + 1] = starts[p] + (part instanceof Unfinished unfinished ? 1 + unfinished.running().length : 1);
            }
            return new Events(starts);
        }

        /** The events of the snapshot, made as they are read. */
        private final class Events extends AbstractList<JournalEvent> implements RunningJobs {
            private final int[] starts;

            Events(int[] starts) {
                this.starts = starts;
            }

            @Override
            public JournalEvent get(int index) {
                int p = part(index);
                Object part = parts.get(p);
                if (part instanceof Supplier<?> later) {
                    return (JournalEvent) later.get();
                }
                if (!(part instanceof Unfinished unfinished)) {
                    return (JournalEvent) part;
                }
                int offset = index - starts[p];
                return offset == 0
                        ? new JournalEvent.Progress(unfinished.id(),
                                unfinished.progress().progress(Arrays.asList(unfinished.running())))
                        : started(unfinished.running()[offset - 1]);
            }

            @Override
            public Job runningJob(int index) {
                int p = part(index);
                int offset = index - starts[p];
                return parts.get(p) instanceof Unfinished unfinished && offset > 0 ? unfinished.running()[offset - 1]
                        : null;
            }

            /** The last part starting at or before {@code index} (empty parts never occur: each has an event). */
            private int part(int index) {
                Objects.checkIndex(index, size);
                int p = Arrays.binarySearch(starts, index);
                return p >= 0 ? p : -p - 2;
            }

            @Override
            public int size() {
                return size;
            }
        }
    }

    /**
     * A snapshot's events whose running jobs can be read as jobs: a journal writes those straight
     * from the job ({@link JobEventCodec#encodeStarted}), the same bytes as {@link #started}.
     */
    interface RunningJobs {
        /** The running job behind event {@code index} (a job_started), or {@code null} for another event. */
        Job runningJob(int index);
    }

    /** An unfinished operation as captured: its queues and its running jobs, in start order. */
    private record Unfinished(String id, ProgressCapture progress, Job[] running) {
    }

    public static JournalEvent.NodeDrained drained(NodeDrain drain) {
        return new JournalEvent.NodeDrained(drain.node(), drain.reason(), drain.now(), drain.by(), drain.since().toEpochMilli());
    }

    private static NodeDrain drain(JournalEvent.NodeDrained drained) {
        return new NodeDrain(drained.node(), drained.reason(), drained.now(), drained.user(), Instant.ofEpochMilli(drained.at()));
    }

    public static JournalEvent.PoolPaused paused(PoolPause pause) {
        return new JournalEvent.PoolPaused(pause.tree(), pause.pool(), pause.drain(), pause.by(),
                pause.since().toEpochMilli());
    }

    public static JournalEvent.GangReserved reserved(GangReservation reservation) {
        return new JournalEvent.GangReserved(reservation.tree(), reservation.operationId(), reservation.domain(),
                reservation.nodes(), reservation.since().toEpochMilli());
    }

    static JournalEvent.JobStarted started(Job job) {
        return new JournalEvent.JobStarted(job.id(), job.operationId(), job.task().name(), job.index(), job.attempt(),
                job.nodeId(), job.tree(), job.startTime().toEpochMilli(), job.startedByPreempting(),
                job.preemptorFairShareAtStart());
    }
}
