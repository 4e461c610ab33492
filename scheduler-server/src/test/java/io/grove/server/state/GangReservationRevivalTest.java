package io.grove.server.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grove.core.cluster.Cluster;
import io.grove.core.cluster.ClusterHarness;
import io.grove.core.cluster.ClusterSettings;
import io.grove.core.cluster.GangReservationTest;
import io.grove.core.schedule.GangReservation;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A gang's reservation survives a restart or a takeover: journaled as made and dropped, and in snapshots. */
class GangReservationRevivalTest {

    private static final Duration SECOND = Duration.ofSeconds(1);

    /** The reservation without its predicted start, which a revived scheduler predicts again. */
    private static List<GangReservation> held(Cluster cluster) {
        return cluster.reservations("physical").stream().map(r -> r.withStart(null)).toList();
    }

    @Test
    void theJournalAndASnapshotBringTheReservationBackAndItsDropToo(@TempDir Path dir) throws Exception {
        ClusterHarness h = GangReservationTest.cluster(GangReservationTest.AFTER_10S);
        try (Journal journal = Journal.open(dir)) {
            h.cluster().gangListener(new JournalingListener(journal));
            h.rounds(16, SECOND);
            assertEquals(1, h.cluster().reservations("physical").size(), "the gang holds n1");
            journal.durable().get();
        }
        List<GangReservation> live = held(h.cluster());
        try (Journal journal = Journal.open(dir)) {
            Cluster revived = new Cluster(h.cluster().config(), ClusterSettings.DEFAULT);
            Revival.replay(revived, journal.recovered(), h.now());
            assertEquals(live, held(revived), "from the running journal");
        }
        Cluster fromSnapshot = new Cluster(h.cluster().config(), ClusterSettings.DEFAULT);
        Revival.replay(fromSnapshot, Revival.snapshot(h.cluster(), h.now()), h.now());
        assertEquals(live, held(fromSnapshot), "from a snapshot");
        GangReservation restored = fromSnapshot.reservationOn(fromSnapshot.node("n1"));
        assertNotNull(restored, "the node is held again (its placeholder until it reconnects)");
        fromSnapshot.updateFairShare(h.now());
        fromSnapshot.checkNodes(h.now().plus(SECOND));
        assertEquals(live, held(fromSnapshot), "kept while its node reconnects and the gang is not known to starve yet");

        try (Journal journal = Journal.open(dir)) {
            h.cluster().gangListener(new JournalingListener(journal));
            h.rounds(60, SECOND);
            assertEquals(2, h.running("g"));
            journal.durable().get();
        }
        try (Journal journal = Journal.open(dir)) {
            Cluster revived = new Cluster(h.cluster().config(), ClusterSettings.DEFAULT);
            Revival.replay(revived, journal.recovered(), h.now());
            assertTrue(revived.reservations("physical").isEmpty(), "the drop was journaled too");
        }
    }
}
