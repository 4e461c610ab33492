package io.grove.server.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.core.cluster.Cluster;
import io.grove.core.cluster.ClusterHarness;
import io.grove.core.cluster.ClusterSettings;
import io.grove.core.cluster.GangReservationTest;
import io.grove.server.coord.Coordination;
import io.grove.server.coord.ZkCoordination;
import io.grove.server.coord.ZkLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The state in ZooKeeper: group commits, large batches, snapshots, and fencing of an old leader. */
class ZkStateLogTest {

    static final ZkLayout LAYOUT = new ZkLayout("/grove-test");

    TestingServer server;
    final List<CuratorFramework> clients = new ArrayList<>();

    @BeforeEach
    void start() throws Exception {
        server = new TestingServer(true);
    }

    @AfterEach
    void stop() throws Exception {
        clients.forEach(CuratorFramework::close);
        server.close();
    }

    CuratorFramework client() {
        CuratorFramework client = CuratorFrameworkFactory.newClient(server.getConnectString(), 10_000, 5_000,
                new RetryNTimes(3, 100));
        client.start();
        clients.add(client);
        return client;
    }

    static Coordination coordination(CuratorFramework zk) {
        return ZkCoordination.over(zk, LAYOUT, Duration.ofSeconds(10));
    }

    ZkStateLog leader(CuratorFramework zk, Runnable onFenced) throws Exception {
        Coordination coordination = coordination(zk);
        return ZkStateLog.open(coordination, LAYOUT, coordination.claimEpoch(), new ZkLogReader(coordination, LAYOUT),
                onFenced);
    }

    static JournalEvent event(int i) {
        return new JournalEvent.Aborted("op-" + i, 1_000L + i, "event " + i);
    }

    static List<String> ids(List<JournalEvent> events) {
        return events.stream().map(e -> ((JournalEvent.Aborted) e).id()).toList();
    }

    @Test
    void whatOneLeaderWroteTheNextReadsInOrder() throws Exception {
        CuratorFramework zk = client();
        try (ZkStateLog first = leader(zk, () -> { })) {
            assertEquals(1, first.epoch().number());
            for (int i = 1; i <= 5; i++) {
                first.append(event(i)).join();
            }
        }
        try (ZkStateLog second = leader(client(), () -> { })) {
            assertEquals(2, second.epoch().number());
            assertEquals(List.of("op-1", "op-2", "op-3", "op-4", "op-5"), ids(second.recovered()));
        }
    }

    @Test
    void aGangsReservationMadeUnderOneLeaderIsHeldByTheNext() throws Exception {
        ClusterHarness h = GangReservationTest.cluster(GangReservationTest.AFTER_10S);
        try (ZkStateLog first = leader(client(), () -> { })) {
            h.cluster().gangListener(new JournalingListener(first));
            h.rounds(16, Duration.ofSeconds(1));
            first.durable().join();
        }
        assertEquals(1, h.cluster().reservations("physical").size());
        try (ZkStateLog next = leader(client(), () -> { })) {
            Cluster taken = new Cluster(h.cluster().config(), ClusterSettings.DEFAULT);
            Revival.replay(taken, next.recovered(), h.now());
            assertEquals(h.cluster().reservations("physical").stream().map(r -> r.withStart(null)).toList(),
                    taken.reservations("physical"), "the new leader holds the same nodes for the same gang");
        }
    }

    @Test
    void queuedEventsAreWrittenTogetherInFewRecords() throws Exception {
        CuratorFramework zk = client();
        try (ZkStateLog log = leader(zk, () -> { })) {
            List<CompletableFuture<Void>> all = IntStream.rangeClosed(1, 2_000).mapToObj(i -> log.append(event(i))).toList();
            CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).join();
            int records = zk.getChildren().forPath(LAYOUT.log()).size();
            assertTrue(records < 2_000, "group commits: " + records + " records for 2000 events");
        }
        List<JournalEvent> read = leader(client(), () -> { }).recovered();
        assertEquals(2_000, read.size());
        assertEquals("op-2000", ids(read).get(1_999));
    }

    @Test
    void aBatchAboveOneZnodeGoesInPartsAndAPartialBatchIsSkipped() throws Exception {
        CuratorFramework zk = client();
        String large = "x".repeat(1_300_000);
        try (ZkStateLog log = leader(zk, () -> { })) {
            log.append(new JournalEvent.Aborted("big", 1, large)).join();
            log.append(event(2)).join();
        }
        assertEquals(4, zk.getChildren().forPath(LAYOUT.log()).size(), "three parts and one record");
        // a leader that died between the parts of a batch left a first part only
        byte[] orphan = java.nio.ByteBuffer.allocate(9 + 3).put((byte) 1).putLong(99).put(new byte[3]).array();
        zk.create().forPath(LAYOUT.logRecord() + "9999999999", orphan);
        try (ZkStateLog next = leader(client(), () -> { })) {
            next.append(event(3)).join();
        }
        List<JournalEvent> read = leader(client(), () -> { }).recovered();
        assertEquals(List.of("big", "op-2", "op-3"), ids(read));
        assertEquals(large, ((JournalEvent.Aborted) read.get(0)).message());
    }

    @Test
    void aSnapshotReplacesWhatItCoversAndLaterEventsFollowIt() throws Exception {
        CuratorFramework zk = client();
        try (ZkStateLog log = leader(zk, () -> { })) {
            for (int i = 1; i <= 10; i++) {
                log.append(event(i)).join();
            }
            log.compact(List.of(event(100), event(101))).join();
            assertEquals(0, zk.getChildren().forPath(LAYOUT.log()).size(), "the covered records are gone");
            log.append(event(11)).join();
            log.compact(List.of(event(200))).join();
            log.append(event(12)).join();
            assertEquals(1, zk.getChildren().forPath(LAYOUT.snapshots()).size(), "older snapshots are gone");
        }
        assertEquals(List.of("op-200", "op-12"), ids(leader(client(), () -> { }).recovered()));
    }

    @Test
    void anOldLeaderIsFencedOnceANewOneClaimsTheEpoch() throws Exception {
        AtomicInteger toldFenced = new AtomicInteger();
        CuratorFramework oldClient = client();
        ZkStateLog old = leader(oldClient, toldFenced::incrementAndGet);
        old.append(event(1)).join();

        // the old leader's session expires (a pause, a partition) and a standby takes over
        oldClient.getZookeeperClient().getZooKeeper().getTestable().injectSessionExpiration();
        ZkStateLog next = leader(client(), () -> { });
        assertEquals(List.of("op-1"), ids(next.recovered()));

        CompletionException refused = assertThrows(CompletionException.class, () -> old.append(event(2)).join());
        assertInstanceOf(ZkStateLog.Fenced.class, refused.getCause());
        assertThrows(CompletionException.class, () -> old.compact(List.of(event(3))).join());
        assertThrows(CompletionException.class, () -> old.append(event(4)).join());
        assertEquals(1, toldFenced.get(), "told once");

        next.append(event(5)).join();
        old.close();
        next.close();
        assertEquals(List.of("op-1", "op-5"), ids(leader(client(), () -> { }).recovered()),
                "nothing of the old leader after the new epoch");
    }

    static List<String> snapshots(CuratorFramework zk) throws Exception {
        return zk.checkExists().forPath(LAYOUT.snapshots()) == null ? List.of() : zk.getChildren().forPath(LAYOUT.snapshots());
    }

    @Test
    void anOldLeadersSnapshotWritesNoChunk() throws Exception {
        CuratorFramework oldClient = client();
        ZkStateLog old = leader(oldClient, () -> { });
        old.append(event(1)).join();
        ZkStateLog next = leader(client(), () -> { });
        List<String> before = snapshots(oldClient);
        // its first write after the takeover is a snapshot: not a chunk of it may be written
        CompletionException refused = assertThrows(CompletionException.class, () -> old.compact(List.of(event(2))).join());
        assertInstanceOf(ZkStateLog.Fenced.class, refused.getCause(), refused.getCause().toString());
        assertEquals(before, snapshots(oldClient), "no snapshot directory of the old leader");
        old.close();
        next.close();
    }

    @Test
    void aStandbyFollowsTheLeaderRecordByRecord() throws Exception {
        CuratorFramework zk = client();
        ZkLogReader standby = new ZkLogReader(coordination(client()), LAYOUT);
        try (ZkStateLog log = leader(zk, () -> { })) {
            log.append(event(1)).join();
            standby.catchUp();
            assertEquals(List.of("op-1"), ids(standby.events()));
            log.append(event(2)).join();
            log.compact(List.of(event(50))).join();
            log.append(event(3)).join();
            standby.catchUp();
            assertEquals(List.of("op-50", "op-3"), ids(standby.events()));
        }
    }
}
