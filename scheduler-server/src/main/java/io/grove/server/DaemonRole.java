package io.grove.server;

import io.grove.api.Health;
import io.grove.http.ApiRequest;
import io.grove.http.ApiResponse;
import io.grove.server.state.Journal;
import io.grove.server.state.StateLog;
import io.netty.channel.ChannelHandler;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * How a daemon keeps its state and what its {@code /healthz} says: on its own with the journal in
 * its data directory ({@link #SINGLE}), or as the leader of a high-availability group with its
 * state in ZooKeeper ({@code io.grove.server.ha}).
 */
public interface DaemonRole {

    /** Opens the state the daemon revives from and writes to. */
    StateLog openState(DaemonSettings settings) throws IOException;

    /** What {@code /healthz} answers. */
    Health health();

    /**
     * Where the daemon's API goes: {@code null} to open its own HTTP server on the API port; else
     * the API is handed to this (a high-availability scheduler keeps one server across its roles),
     * and taken back with {@code null} when the daemon stops.
     */
    default Consumer<Function<ApiRequest, CompletableFuture<ApiResponse>>> apiHost() {
        return null;
    }

    /**
     * Where the daemon's node sessions go: {@code null} to open its own node endpoint; else the
     * sessions' factory is handed to this (a high-availability scheduler keeps one node port across
     * its roles), and taken back with {@code null} when the daemon stops, which ends its sessions.
     */
    default Consumer<Supplier<? extends ChannelHandler>> nodeHost() {
        return null;
    }

    /**
     * Whether the daemon may act as the leader now — answer nodes, start jobs: always on its own; in
     * a high-availability group only while its lease runs.
     */
    default boolean mayAct() {
        return true;
    }

    /**
     * Whether the job starts of a heartbeat's answer must be durable before the node hears of them:
     * in a group, so that a new leader knows every job a node may run; on its own the scheduler
     * restarts from its own journal and sends the starts at once.
     */
    default boolean startsWrittenFirst() {
        return false;
    }

    /** One scheduler, its journal on its own disk. */
    DaemonRole SINGLE = new DaemonRole() {
        @Override
        public StateLog openState(DaemonSettings settings) throws IOException {
            return Journal.open(settings.dataDir());
        }

        @Override
        public Health health() {
            return Health.OK;
        }
    };
}
