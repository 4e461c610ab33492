package io.grove.server.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.grove.core.cluster.Cluster;
import io.grove.core.cluster.ClusterSettings;
import io.grove.core.operation.Job;
import io.grove.core.operation.JobEndReason;
import io.grove.core.operation.JobState;
import io.grove.core.operation.Operation;
import io.grove.core.operation.OperationSpec;
import io.grove.core.operation.OperationState;
import io.grove.core.pool.PoolConfig;
import io.grove.core.pool.PoolTreeConfig;
import io.grove.core.pool.PoolsConfig;
import io.grove.core.resource.Resources;
import io.grove.core.schedule.Decision;
import io.grove.core.schedule.Heartbeat;
import java.nio.file.Path;
import java.time.Instant;
import java.util.AbstractList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A snapshot replays to the same state, and so does the journal written while running. */
class RevivalTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private static Cluster cluster() {
        return new Cluster(new PoolsConfig("t", Map.of("t", PoolTreeConfig.withPools("t",
                List.of(PoolConfig.builder("a").maxRunningOperationCount(1).build())))), ClusterSettings.DEFAULT);
    }

    private static Cluster busyCluster(Journal journal) {
        Cluster cluster = cluster();
        if (journal != null) {
            cluster.registry().listener(new JournalingListener(journal));
        }
        OperationSpec spec = OperationSpec.builder().pool("a").maxFailedJobCount(5).jobs(6, new Resources(1, 1, 0, 1e9, 0)).build();
        cluster.submit("op-1", spec, "u", T0);
        cluster.submit("op-2", spec, "u", T0);
        cluster.submit("op-3", OperationSpec.builder().pool("a").jobs(1, Resources.cpu(1)).build(), "u", T0);
        if (journal != null) {
            for (String id : List.of("op-1", "op-2", "op-3")) {
                journal.append(new JournalEvent.Submitted(id, cluster.registry().operation(id).spec(), "u", T0.toEpochMilli()));
            }
        }
        Heartbeat empty = new Heartbeat("n1", Set.of(), new Resources(4, 4, 0, 16e9, 0), null, List.of(), List.of());
        cluster.report(empty, T0);
        cluster.updateFairShare(T0);
        Decision decision = cluster.heartbeat(empty, T0);
        assertEquals(4, decision.starts().size());
        cluster.revival().replayJobEnd("op-1-1", JobState.COMPLETED, T0, null, null);
        cluster.revival().replayJobEnd("op-1-2", JobState.FAILED, T0, JobEndReason.FAILED, "exit 1");
        return cluster;
    }

    private static void assertSameState(Cluster expected, Cluster actual) {
        for (Operation operation : expected.registry().operations()) {
            Operation other = actual.registry().operation(operation.id());
            assertEquals(operation.state(), other.state(), operation.id());
            assertEquals(operation.pendingJobCount(), other.pendingJobCount(), operation.id());
            assertEquals(operation.completedJobCount(), other.completedJobCount(), operation.id());
            assertEquals(operation.failedJobCount(), other.failedJobCount(), operation.id());
            assertEquals(operation.runningJobs().stream().map(j -> j.id() + "#" + j.index()).toList(),
                    other.runningJobs().stream().map(j -> j.id() + "#" + j.index()).toList(), operation.id());
            assertEquals(operation.pendingIndex("main", 0), other.pendingIndex("main", 0), "next index of " + operation.id());
        }
        assertEquals(expected.registry().pendingReason("op-3", "t"), actual.registry().pendingReason("op-3", "t"));
    }

    @Test
    void aSnapshotReplaysToTheSameState() {
        Cluster live = busyCluster(null);
        Cluster revived = cluster();
        Revival.replay(revived, Revival.snapshot(live, T0), T0);
        assertSameState(live, revived);
        assertEquals(OperationState.PENDING, revived.registry().operation("op-3").state());
    }

    /** A snapshot's events that counts the ones made. */
    private static final class CountedSnapshot extends AbstractList<JournalEvent> implements Revival.RunningJobs {
        private final List<JournalEvent> events;
        int read;

        CountedSnapshot(List<JournalEvent> events) {
            this.events = events;
        }

        @Override
        public JournalEvent get(int index) {
            read++;
            return events.get(index);
        }

        @Override
        public Job runningJob(int index) {
            return ((Revival.RunningJobs) events).runningJob(index);
        }

        @Override
        public int size() {
            return events.size();
        }
    }

    @Test
    void aSnapshotWithTheChangesInFlightIsReadAsItIsWrittenAndItsJobsStayJobs() {
        Cluster live = busyCluster(null);
        List<JournalEvent> events = Revival.capture(live, T0).events();
        CountedSnapshot counted = new CountedSnapshot(events);
        assertSame(events, new WriteAhead(null, null).withInFlight(() -> events).get(),
                "nothing in flight: the snapshot itself, not a copy of its events");

        JournalEvent written = new JournalEvent.Submitted("op-9", live.registry().operation("op-3").spec(), "u",
                T0.toEpochMilli());
        List<JournalEvent> followed = new WriteAhead.FollowedBy(counted, List.of(written));
        assertEquals(0, counted.read, "no event is made before the log reads it");
        assertEquals(events.size() + 1, followed.size());
        assertSame(written, followed.get(events.size()));
        int jobs = 0;
        for (int i = 0; i < events.size(); i++) {
            if (((Revival.RunningJobs) events).runningJob(i) != null) {
                jobs++;
                assertSame(((Revival.RunningJobs) events).runningJob(i), ((Revival.RunningJobs) followed).runningJob(i));
            }
        }
        assertEquals(2, jobs);
        assertNull(((Revival.RunningJobs) followed).runningJob(events.size()));
    }

    @Test
    void aCompactionWritesRunningJobsStraightFromTheJobsWithTheSameBytes() {
        Cluster live = busyCluster(null);
        live.revival().restoreRunningJob("op-2", "op-2-special", "main", 5, 0, "n1", "t", T0, Set.of("op-1", "op-3"), 0.25, T0);
        List<JournalEvent> events = Revival.capture(live, T0).events();
        RecordBuffer direct = new RecordBuffer();
        RecordBuffer generic = new RecordBuffer();
        List<JournalEvent> made = List.copyOf(events);
        int jobs = 0;
        for (int i = 0; i < events.size(); i++) {
            JournalFormat.encode(events, i, i + 1, direct);
            JournalFormat.encode(made, i, i + 1, generic);
            jobs += made.get(i) instanceof JournalEvent.JobStarted ? 1 : 0;
        }
        assertEquals(3, jobs, "the two running jobs and the restored one with an id of its own");
        org.junit.jupiter.api.Assertions.assertArrayEquals(generic.toByteArray(), direct.toByteArray());
    }

    @Test
    void theRunningJournalReplaysToTheSameState(@TempDir Path dir) throws Exception {
        Cluster live;
        try (Journal journal = Journal.open(dir)) {
            live = busyCluster(journal);
            journal.append(new JournalEvent.Aborted("op-2", T0.toEpochMilli(), "x")).get();
            live.abort("op-2", T0, "x");
        }
        try (Journal journal = Journal.open(dir)) {
            Cluster revived = cluster();
            Revival.Outcome outcome = Revival.replay(revived, journal.recovered(), T0);
            assertEquals(3, outcome.highestOperationNumber());
            assertSameStateLoosely(live, revived);
        }
    }

    private static void assertSameStateLoosely(Cluster expected, Cluster actual) {
        for (Operation operation : expected.registry().operations()) {
            Operation other = actual.registry().operation(operation.id());
            assertEquals(operation.state(), other.state(), operation.id());
            assertEquals(operation.completedJobCount(), other.completedJobCount(), operation.id());
            assertEquals(operation.runningJobCount(), other.runningJobCount(), operation.id());
        }
    }

    @Test
    void anOperationInAPoolThatIsGoneAtReplayIsKeptInAnEphemeralPoolOfTheSameName() {
        OperationSpec intoAlice = OperationSpec.builder().pool("alice").jobs(1, Resources.cpu(1)).build();
        // what an earlier version wrote: bob's operation in alice's ephemeral pool, alice's long gone
        List<JournalEvent> journal = List.of(new JournalEvent.Submitted("op-7", intoAlice, "bob", T0.toEpochMilli()));
        Cluster revived = cluster();
        Revival.Outcome outcome = Revival.replay(revived, journal, T0);
        assertEquals(1, outcome.operations(), "the acknowledged operation is not dropped");
        assertEquals("alice", revived.registry().operation("op-7").poolByTree().get("t"));
        // and it replays again after the next compaction
        Cluster again = cluster();
        Revival.replay(again, Revival.snapshot(revived, T0), T0);
        assertEquals(OperationState.PENDING.isFinished(), again.registry().operation("op-7").state().isFinished());
    }

    @Test
    void nobodySubmitsIntoAnotherUsersEphemeralPool() {
        Cluster cluster = cluster();
        cluster.submit("op-1", OperationSpec.builder().jobs(1, Resources.cpu(1)).build(), "alice", T0);
        io.grove.core.operation.SubmitException refused = org.junit.jupiter.api.Assertions.assertThrows(
                io.grove.core.operation.SubmitException.class, () -> cluster.submit("op-2",
                        OperationSpec.builder().pool("alice").jobs(1, Resources.cpu(1)).build(), "bob", T0));
        assertEquals(io.grove.core.operation.SubmitError.FOREIGN_EPHEMERAL_POOL, refused.code());
        cluster.submit("op-3", OperationSpec.builder().pool("alice").jobs(1, Resources.cpu(1)).build(), "alice", T0);
    }

    @Test
    void drainsReplayFromTheJournalAndFromASnapshotWhetherOrNotTheirNodesAreConnected() {
        List<JournalEvent> journal = List.of(
                Revival.drained(new io.grove.core.node.NodeDrain("n1", "disk", true, "root", T0)),
                Revival.drained(new io.grove.core.node.NodeDrain("n2", null, false, "root", T0)),
                new JournalEvent.NodeUndrained("n2", "root", T0.toEpochMilli()));
        Cluster revived = cluster();
        Revival.replay(revived, journal, T0);
        assertEquals(java.util.Set.of("n1"), revived.drains().all().keySet(), "n2 was undrained");
        assertEquals("disk", revived.drains().of("n1").reason());
        Cluster again = cluster();
        Revival.replay(again, Revival.snapshot(revived, T0), T0);
        assertEquals(revived.drains().all(), again.drains().all(), "a compaction keeps the drain of a node not connected");
    }
}
