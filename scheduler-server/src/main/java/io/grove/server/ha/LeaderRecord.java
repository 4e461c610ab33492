package io.grove.server.ha;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.grove.protocol.ProtocolJson;
import io.grove.server.coord.Coordination;
import io.grove.server.coord.CoordinationException;
import io.grove.server.coord.Epoch;
import io.grove.server.coord.ZkLayout;
import java.io.IOException;
import java.util.List;

/**
 * Where the leader is, as it writes it in {@link ZkLayout#leader()}: an ephemeral record (it goes
 * with the leader's session) written fenced by the epoch like every write of the leader. A leader
 * writes it last when it starts leading and removes it when it steps down; a new leader that still
 * finds an older leader's record after its claim waits out a lease before it acts
 * ({@link io.grove.server.coord.Fencing}).
 */
record LeaderRecord(long epoch, String api, String nodes) {

    private static final ObjectMapper JSON = ProtocolJson.mapper();

    /** The record now, or {@code null} when there is none. */
    static LeaderRecord read(Coordination coordination, ZkLayout layout) throws CoordinationException, IOException {
        byte[] data = coordination.read(layout.leader());
        return data == null ? null : JSON.readValue(data, LeaderRecord.class);
    }

    /** Whether an older leader's record is there; when the service cannot say, it may be. */
    static boolean present(Coordination coordination, ZkLayout layout) {
        try {
            return coordination.read(layout.leader()) != null;
        } catch (CoordinationException e) {
            return true;
        }
    }

    /** Writes this record under its epoch, replacing an older leader's. */
    void write(Coordination coordination, ZkLayout layout, Epoch claimed) throws CoordinationException, IOException {
        Coordination.Create create = new Coordination.Create(layout.leader(), JSON.writeValueAsBytes(this), false, true);
        coordination.write(claimed, coordination.read(layout.leader()) == null ? List.of(create)
                : List.of(new Coordination.Delete(layout.leader()), create));
    }

    /**
     * Removes the record of {@code epoch}, if it is still there and the epoch still holds; a newer
     * leader's record stays, and one whose write is refused goes with its session.
     */
    static void withdraw(Coordination coordination, ZkLayout layout, Epoch epoch) {
        try {
            LeaderRecord current = read(coordination, layout);
            if (current != null && current.epoch() == epoch.number()) {
                coordination.write(epoch, List.of(new Coordination.Delete(layout.leader())));
            }
        } catch (CoordinationException | IOException e) {
            // fenced, or the service is away: the record is a newer leader's, or goes with the session
        }
    }
}
